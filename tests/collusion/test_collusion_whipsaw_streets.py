"""Whipsaw raises counted on the streets a third player was in (PATTERN-WHIPSAW, issue 25).

RULEBOOK: "two players repeatedly re-raising each other while a third player is caught calling
in between". The hand's counts (the projections) say that both bet or raised after the preflop
round in a pot dealt to three or more, not whether a third player was still in when they did: a
chip dumper bets and his receiver raises after the flop once the pot is heads-up, and every
chip-dump team of issue 25's populations led on whipsaw. The events tell the streets apart: a
street after the flop counts when a third player started it with chips, and the third player's
part is kept (he called in between, or folded to their raises).
"""

from __future__ import annotations

import polars as pl

from audit.collusion import leads as L
from audit.collusion import streets as S
from tests.collusion.frames import events
from tests.collusion.test_collusion_whipsaw import TEAM, N, _raise_table, _scored
from tests.support.counted_reads import counted_reads

_PREFLOP = [("post", "alice", "small_blind"), ("post", "bob", "big_blind"),
            ("call", "carol", None), ("call", "alice", None), ("check", "bob", None)]
# alice bets the flop, carol calls, bob raises, alice calls, carol calls again: carol caught
# calling in between
CAUGHT = events("h1", [*_PREFLOP, ("board", None, None),
                       ("bet", "alice", None), ("call", "carol", None), ("raise", "bob", None),
                       ("call", "alice", None), ("call", "carol", None)])
# alice bets the flop, bob raises, carol folds to the raise: squeezed out between them
SQUEEZED = events("h2", [*_PREFLOP, ("board", None, None),
                         ("bet", "alice", None), ("raise", "bob", None), ("fold", "carol", None),
                         ("call", "alice", None)])
# carol folds to alice's flop bet, bob calls; heads-up on the turn alice bets and bob raises (a
# chip dumper's bet and his receiver's raise): nobody is caught between them
HEADS_UP_BY_THEN = events("h3", [*_PREFLOP, ("board", None, None),
                                 ("bet", "alice", None), ("fold", "carol", None),
                                 ("call", "bob", None), ("board", None, None),
                                 ("bet", "alice", None), ("raise", "bob", None),
                                 ("fold", "alice", None)])
# carol folds to alice's flop bet before bob raises it: alice bet into two players, but bob's
# raise came with only the two of them left (a chip dumper bets as an honest player while a third
# player is in, and his receiver raises once the third has gone)
FOLDED_BEFORE_THE_RAISE = events("h4", [*_PREFLOP, ("board", None, None),
                                        ("bet", "alice", None), ("fold", "carol", None),
                                        ("raise", "bob", None), ("fold", "alice", None)])


def _counts(*hands: pl.DataFrame) -> list[tuple[str, str, int, int]]:
    got = S.street_counts(pl.concat(hands).lazy())
    return got.pairs.select("player_a", "player_b", "wss_k", "wss_c").rows()


def test_raising_around_a_third_player_who_calls_in_between_is_a_whipsaw_street() -> None:
    assert _counts(CAUGHT) == [("alice", "bob", 1, 1)]


def test_raising_around_a_third_player_who_folds_to_it_is_a_whipsaw_street_too() -> None:
    # (against a whipsaw the third player mostly folds: his cost is the pot he gives up)
    assert _counts(SQUEEZED) == [("alice", "bob", 1, 0)]


def test_betting_and_raising_heads_up_after_the_third_player_folded_is_no_whipsaw() -> None:
    # (the pair is counted: on the turn only the two were left, `hus_n`)
    assert _counts(HEADS_UP_BY_THEN) == [("alice", "bob", 0, 0)]
    assert _counts(FOLDED_BEFORE_THE_RAISE) == []
    # the counts per hand, for the overlap re-check, the same hands
    got = S.street_counts(pl.concat([CAUGHT, SQUEEZED, HEADS_UP_BY_THEN,
                                     FOLDED_BEFORE_THE_RAISE]).lazy())
    assert got.hands.filter(pl.col("wss_k") > 0)["hand_id"].sort().to_list() == ["h1", "h2"]
    assert got.pairs.select("wss_k", "wss_c").rows() == [(2, 1)]


def _with_streets(table: pl.DataFrame, dump: tuple[str, str], team_streets: float
                  ) -> pl.DataFrame:
    """`_raise_table` with the events' counts: every pair's double raises after the flop were
    around a third player, but the `dump` pair's (a chip dumper and his receiver, raising after
    the flop as often as the team but in pots gone heads-up) as an honest pair's, and the
    team's in a share `team_streets` of its hands both raised after the flop."""
    a, b = pl.col("player_a"), pl.col("player_b")
    honest = (pl.col("ws_both") * 0.36).round().cast(pl.Int64)
    is_dump = (a == dump[0]) & (b == dump[1])
    is_team = (a == TEAM[0]) & (b == TEAM[1])
    return table.with_columns(
        ws_post=pl.when(is_dump).then((pl.col("ws_both") * 0.75).round().cast(pl.Int64))
        .otherwise(pl.col("ws_post")).cast(table.schema["ws_post"])).with_columns(
        wss_k=pl.when(is_dump).then(honest)
        .when(is_team).then((pl.col("ws_post") * team_streets).round().cast(pl.Int64))
        .otherwise(pl.col("ws_post").cast(pl.Int64)),
        wss_c=pl.lit(0, pl.Int64))


DUMP = ("p02", "p03")  # two loose-aggressive players of the table


def test_a_pair_raising_after_the_flop_only_heads_up_is_no_whipsaw_lead() -> None:
    table = _with_streets(_raise_table(N), DUMP, 1.0)
    scored = _scored(table)
    p = dict(zip(scored.select("player_a", "player_b").rows(), scored["whipsaw_p"].to_list(),
                 strict=True))
    assert p[DUMP] > 0.01
    # read on the hands' counts (no events), the same pair read as whipsawing: the failure
    # this test is about
    old = _scored(table.drop("wss_k", "wss_c"))
    p_old = dict(zip(old.select("player_a", "player_b").rows(), old["whipsaw_p"].to_list(),
                     strict=True))
    assert p_old[DUMP] < 1e-5


def test_a_team_raising_around_third_players_stays_a_whipsaw_lead_on_the_streets() -> None:
    # 600 multiway hands together, 48 double raises, 36 both after the flop, all of them on a
    # street a third player started with chips
    scored = _scored(_with_streets(_raise_table(600), DUMP, 1.0))
    team = scored.filter((pl.col("player_a") == TEAM[0]) & (pl.col("player_b") == TEAM[1]))
    assert team["whipsaw_p"].to_list()[0] < 1e-5
    assert team["whipsaw_raises"].to_list() == [2.0]
    assert team.select("whipsaw_k", "whipsaw_n").rows() == [(36.0, 48.0)]
    said = L._describe("whipsaw", team.row(0, named=True))
    assert "while a third player was still in with chips in 36 of the 48" in said
    # and no honest pair of the table stands out
    others = scored.filter((pl.col("player_a") != TEAM[0]) | (pl.col("player_b") != TEAM[1]))
    assert others["whipsaw_p"].min() > 0.01


def test_the_events_are_read_once_for_every_kind_of_street() -> None:
    # the check-down, heads-up and whipsaw streets of an event file from one read of it: each
    # read of an event file costs the stage (600 files at 5,000,000 hands), and the whipsaw
    # streets read on their own were 20 to 50 CPU-s and 430 MB more (session 20)
    hands = pl.concat([CAUGHT, SQUEEZED, HEADS_UP_BY_THEN, FOLDED_BEFORE_THE_RAISE])
    lazy, reads = counted_reads(hands)
    got = S.street_counts(lazy)
    assert reads == [1]
    assert got.pairs.select("player_a", "player_b", "wss_k", "wss_c", "hus_n").rows() == [
        ("alice", "bob", 2, 1, 1)]
    # and so with a run's seats (the stage's way: seats named by the run's player ids)
    seat = {"alice": 1, "bob": 2, "carol": 3}
    by_seat = hands.with_columns(seat=pl.col("player").replace_strict(seat, default=None,
                                                                      return_dtype=pl.Int8))
    seats = (by_seat.filter(pl.col("seat").is_not_null())
             .select("hand_id", "seat", player=pl.col("player") + "@room").unique())
    lazy, reads = counted_reads(by_seat)
    got = S.street_counts(lazy, seats.lazy())
    assert reads == [1]
    assert got.pairs.select("player_a", "player_b", "wss_k", "wss_c", "hus_n").rows() == [
        ("alice@room", "bob@room", 2, 1, 1)]
