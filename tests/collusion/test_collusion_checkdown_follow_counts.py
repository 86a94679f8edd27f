"""Following short stacks into pots beside the partner, counted from the events (issue 25).

PATTERN-CHECKDOWN-ALLIN names what a check-down team does around a short stack: it "checks
behind a third player's all-in, gangs up on shoves and follows short stacks into pots". A
*follow spot*: before the flop a player acts on a bet or raise of a third player who started
the hand with less than 30 big blinds, or whose raise was all-in, and his hole cards are known.
He continues (calls or raises) or folds. His partner is *in* there when dealt in, not folded
before he acts, and not the raiser. What his own play predicts: per spot his continue rate with
hands as strong (Chen bins) in his spots WITHOUT the partner in, shrunk toward his overall rate
with two spots; a team sits together most of the time, so over all his spots his rate is mostly
his play beside the partner.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from audit.collusion import streets as S
from tests.support.counted_reads import counted_reads

BB = 100
DEEP, SHORT = 100 * BB, 20 * BB  # stacks at the start of the hand
WEAK, STRONG = "Tc 6d", "As Ah"  # twice Chen's points 2 (bin [0, 8)) and 40 (20 and up)
SEAT = {"tom": 1, "pat": 2, "sam": 3, "olga": 4, "otto": 5, "dan": 6, "ann": 7, "amy": 8}
_EVENT = {"hand_id": pl.String, "seq": pl.Int32, "kind": pl.String, "seat": pl.Int8,
          "player": pl.String, "amount": pl.Int64, "cards": pl.String, "detail": pl.String,
          "game": pl.Struct({"variant": pl.String, "big_blind": pl.Int64})}


def hand(hand_id: str, stacks: dict[str, int], holes: dict[str, str],
         actions: list[tuple[str, str, str | None]], variant: str = "holdem",
         sitting_out: tuple[str, ...] = ()) -> pl.DataFrame:
    """A hand's events: its start (the game), a seat per player dealt in (his stack), one
    sitting out per `sitting_out`, the hole cards of `holes` (those not in it unknown to the
    log: no deal row), the blinds and then `actions` (kind, player, detail) before the flop."""
    game = {"variant": variant, "big_blind": BB}
    rows: list[dict[str, object]] = [{"kind": "hand_started", "game": game}]
    rows += [{"kind": "seat", "player": p, "amount": s} for p, s in stacks.items()]
    rows += [{"kind": "seat", "player": p, "amount": DEEP, "detail": "sitting_out"}
             for p in sitting_out]
    rows += [{"kind": "deal", "player": p, "cards": c, "detail": "hole"}
             for p, c in holes.items()]
    rows += [{"kind": k, "player": p, "detail": d} for k, p, d in actions]
    return pl.DataFrame(
        [{"hand_id": hand_id, "seq": i, "seat": SEAT.get(str(r.get("player"))), **r}
         for i, r in enumerate(rows)], schema=_EVENT)


def follow(hand_id: str, cards: str, partner_in: bool, continues: bool) -> pl.DataFrame:
    """Short-stacked sam raises; olga folds; tom, on the button, calls or folds with `cards`;
    pat, in the big blind, is dealt in (and still in when tom acts) when `partner_in`, else
    away from the table (otto takes the blind)."""
    blind = "pat" if partner_in else "otto"
    return hand(hand_id, {"sam": SHORT, "olga": DEEP, "tom": DEEP, blind: DEEP},
                {"sam": "Kd Qd", "olga": "8s 3h", "tom": cards, blind: "5h 5s"},
                [("post", blind, "big_blind"), ("raise", "sam", None),
                 ("fold", "olga", None), ("call" if continues else "fold", "tom", None),
                 ("fold", blind, None)])


def _direction(got: S.StreetCounts, p: str, q: str) -> tuple[int, int, float]:
    """P's spots with Q in, his continues there and their expected number."""
    a, b = sorted((p, q))
    x = "a" if p == a else "b"
    row = got.pairs.filter((pl.col("player_a") == a) & (pl.col("player_b") == b))
    if row.height == 0:
        return 0, 0, 0.0
    n, k, e = row.select(f"cdf_n{x}", f"cdf_k{x}", f"cdf_e{x}").row(0)
    return n, k, e


def _counts(*hands: pl.DataFrame) -> S.StreetCounts:
    return S.street_counts(pl.concat(hands).lazy())


# tom calls the short stack's raise with weak hands whenever pat is in and folds them otherwise
# (with a strong hand he always calls)
FOLLOWER = [
    *[follow(f"w{i}", WEAK, partner_in=True, continues=True) for i in range(20)],
    *[follow(f"a{i}", WEAK, partner_in=False, continues=False) for i in range(20)],
    *[follow(f"s{i}", STRONG, partner_in=False, continues=True) for i in range(10)]]


def test_a_player_who_follows_short_stacks_only_beside_his_partner_continues_far_above_his_own_rate(
) -> None:
    n, k, e = _direction(_counts(*FOLLOWER), "tom", "pat")
    assert (n, k) == (20, 20)
    # his weak hands without pat: 0 continues in 20, shrunk toward his overall 30 in 50 with two
    # spots: (0 + 2 * 0.6) / (20 + 2) each
    assert e == pytest.approx(20 * 1.2 / 22)
    assert k > 10 * e
    # pat folds his big blind to the raise after tom's call, every time: no continue, none
    # expected (his rate, beside tom or not, is 0)
    assert _direction(_counts(*FOLLOWER), "pat", "tom") == (20, 0, 0.0)


def test_the_expectation_leaves_the_partners_spots_out_of_the_players_own_rate() -> None:
    # over all his spots tom continues with weak hands 20 times in 40: that rate, the team's
    # own play, would expect about 10 of his 20 continues beside pat and hide the team
    _, k, e = _direction(_counts(*FOLLOWER), "tom", "pat")
    assert e != pytest.approx(20 * (20 + 1.2) / (40 + 2))
    assert e < 2 < k


def test_a_player_who_continues_alike_with_and_without_the_partner_is_as_expected() -> None:
    same = [follow(f"h{i}", WEAK, partner_in=i < 20, continues=i % 2 == 0) for i in range(40)]
    n, k, e = _direction(_counts(*same), "tom", "pat")
    # half his weak hands with pat in, half without: (10 + 2 * 0.5) / (20 + 2) per spot
    assert (n, k) == (20, 10)
    assert e == pytest.approx(10.0)


def _raise(hand_id: str, stack: int, detail: str | None) -> pl.DataFrame:
    """dan (`stack`) raises (all-in when `detail`); tom calls with pat in the big blind."""
    return hand(hand_id, {"dan": stack, "tom": DEEP, "pat": DEEP},
                {"dan": "Kd Qd", "tom": WEAK, "pat": "5h 5s"},
                [("post", "pat", "big_blind"), ("raise", "dan", detail), ("call", "tom", None),
                 ("call", "pat", None)])


def test_a_third_players_all_in_raise_counts_whatever_his_stack() -> None:
    assert _direction(_counts(_raise("h1", DEEP, "all_in")), "tom", "pat")[:2] == (1, 1)
    # pat calls dan's all-in with tom in too (tom's call came before: he is in)
    assert _direction(_counts(_raise("h1", DEEP, "all_in")), "pat", "tom")[:2] == (1, 1)


def test_a_deep_stacks_ordinary_raise_is_no_follow_spot() -> None:
    assert S.follow_spots(_raise("h1", DEEP, None).lazy()).collect().height == 0
    # short: less than 30 big blinds at the start of the hand; 30 is not short
    assert S.follow_spots(_raise("h1", 30 * BB, None).lazy()).collect().height == 0
    assert S.follow_spots(_raise("h1", 30 * BB - 1, None).lazy()).collect().height == 2


def test_unknown_hole_cards_give_no_spot() -> None:
    unseen = hand("h1", {"sam": SHORT, "tom": DEEP, "pat": DEEP}, {"sam": "Kd Qd"},
                  [("post", "pat", "big_blind"), ("raise", "sam", None), ("call", "tom", None),
                   ("call", "pat", None)])
    assert S.follow_spots(unseen.lazy()).collect().height == 0
    masked = hand("h1", {"sam": SHORT, "tom": DEEP, "pat": DEEP},
                  {"sam": "Kd Qd", "tom": "?? ??", "pat": "5h ??"},
                  [("post", "pat", "big_blind"), ("raise", "sam", None), ("call", "tom", None),
                   ("call", "pat", None)])
    assert S.follow_spots(masked.lazy()).collect().height == 0
    # nor a game whose starting hands are no two concealed cards of one deal
    stud = hand("h1", {"sam": SHORT, "tom": DEEP, "pat": DEEP},
                {"sam": "Kd Qd 2c", "tom": "Tc 6d 3s", "pat": "5h 5s 4d"},
                [("raise", "sam", None), ("call", "tom", None), ("call", "pat", None)],
                variant="stud")
    assert S.follow_spots(stud.lazy()).collect().height == 0


def test_the_partner_is_in_when_dealt_in_and_not_folded_before_the_player_acts() -> None:
    # sam (short) raises; amy folds before tom acts, tom calls, pat folds after him; ann sits
    # out; dan calls after everyone
    h = hand("h1", {"sam": SHORT, "amy": DEEP, "tom": DEEP, "pat": DEEP, "dan": DEEP},
             {"sam": "Kd Qd", "amy": "8s 3h", "tom": WEAK, "pat": "5h 5s", "dan": "Jc Jd"},
             [("post", "pat", "big_blind"), ("raise", "sam", None), ("fold", "amy", None),
              ("call", "tom", None), ("fold", "pat", None), ("call", "dan", None)],
             sitting_out=("ann",))
    got = _counts(h)
    assert _direction(got, "tom", "pat")[:2] == (1, 1)  # pat folded after tom acted
    assert _direction(got, "tom", "dan")[:2] == (1, 1)  # dan acts later: in
    assert _direction(got, "tom", "amy")[0] == 0  # folded before
    assert _direction(got, "tom", "ann")[0] == 0  # not dealt in
    assert _direction(got, "tom", "sam")[0] == 0  # the raiser is no partner
    # pat folds with tom and dan in; dan calls with tom in (pat folded before him)
    assert _direction(got, "pat", "tom")[:2] == (1, 0)
    assert _direction(got, "dan", "tom")[:2] == (1, 1)
    assert _direction(got, "dan", "pat")[0] == 0


def test_the_counts_per_hand_add_up_to_the_pairs() -> None:
    same = [follow(f"x{i}", STRONG, partner_in=i % 3 == 0, continues=i % 4 != 0)
            for i in range(12)]
    got = _counts(*FOLLOWER, *same)
    assert got.hands is not None
    cols = [*S.FOLLOW_COUNTS, *S.FOLLOW_EXPECTED]
    summed = (got.hands.group_by("player_a", "player_b").agg(pl.col(*cols).sum())
              .filter(pl.sum_horizontal(S.FOLLOW_COUNTS) > 0).sort("player_a", "player_b"))
    pairs = (got.pairs.filter(pl.sum_horizontal(S.FOLLOW_COUNTS) > 0)
             .select("player_a", "player_b", *cols).sort("player_a", "player_b"))
    assert summed.select("player_a", "player_b", *S.FOLLOW_COUNTS).equals(
        pairs.select("player_a", "player_b", *S.FOLLOW_COUNTS))
    for e in S.FOLLOW_EXPECTED:
        assert summed[e].to_list() == pytest.approx(pairs[e].to_list())
    assert pairs.height > 2


def test_parts_counted_apart_are_judged_on_the_baseline_of_all_of_them() -> None:
    # tom's weak folds without pat are in one part, his follows beside pat in the other: the
    # second part alone has no spot without pat to expect from, all of them together do
    whole = _counts(*FOLLOWER)
    parts = S.combine([_counts(*FOLLOWER[:20]), _counts(*FOLLOWER[20:])])
    assert _direction(parts, "tom", "pat") == pytest.approx(_direction(whole, "tom", "pat"))
    assert _direction(_counts(*FOLLOWER[:20]), "tom", "pat")[2] == pytest.approx(20.0)
    assert parts.hands is not None and whole.hands is not None
    cols = ["hand_id", "player_a", "player_b", *S.FOLLOW_COUNTS, *S.FOLLOW_EXPECTED]
    assert parts.hands.select(cols).sort("hand_id", "player_a", "player_b").equals(
        whole.hands.select(cols).sort("hand_id", "player_a", "player_b"))


def _by_seat(frame: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The events with players told apart by seat and the run's seats naming them by room."""
    seats = (frame.filter((pl.col("kind") == "seat") & pl.col("detail").is_null())
             .select("hand_id", "seat", player=pl.col("player") + "@room"))
    return frame, seats


def test_the_follow_spots_come_from_the_same_single_read_of_the_events() -> None:
    events, seats = _by_seat(pl.concat(FOLLOWER))
    lazy, reads = counted_reads(events)
    got = S.street_counts(lazy, seats.lazy())
    assert reads == [1]
    # named by the run's players, the same counts as by the log's names
    assert _direction(got, "tom@room", "pat@room") == pytest.approx(
        _direction(_counts(*FOLLOWER), "tom", "pat"))


def test_event_files_count_the_follow_spots_of_hands_nobody_saw_the_flop_of(
        tmp_path: Path) -> None:
    # the street spots need three players at the flop, and only those hands' events were
    # read; every follow spot here ends before the flop
    events, seats = _by_seat(pl.concat(FOLLOWER))
    files = []
    for i, part in enumerate((events.filter(pl.col("hand_id").str.starts_with("w")),
                              events.filter(~pl.col("hand_id").str.starts_with("w")))):
        files.append(tmp_path / f"events{i}.parquet")
        part.write_parquet(files[-1])
    folded = seats.with_columns(folded_street=pl.lit("preflop"))
    got = S.file_counts(files, folded.lazy())
    assert _direction(got, "tom@room", "pat@room") == pytest.approx(
        _direction(_counts(*FOLLOWER), "tom", "pat"))


def test_the_hands_games_can_come_from_the_runs_hands_instead_of_the_events(
        tmp_path: Path) -> None:
    # a run's hands projection has each hand's big blind and variant: the events' game (a
    # struct decoded for every event) need not be read; the same counts either way
    events, seats = _by_seat(pl.concat([*FOLLOWER, _raise("d1", 30 * BB - 1, None)]))
    path = tmp_path / "events.parquet"
    events.write_parquet(path)
    hands = (events.filter(pl.col("kind") == "hand_started")
             .select("hand_id", big_blind=pl.col("game").struct.field("big_blind"),
                     variant=pl.col("game").struct.field("variant")))
    folded = seats.with_columns(folded_street=pl.lit("preflop"))
    with_hands = S.file_counts([path], folded.lazy(), hands.lazy())
    from_events = S.file_counts([path], folded.lazy())
    assert with_hands.pairs.equals(from_events.pairs)
    assert _direction(with_hands, "tom@room", "pat@room")[:2] == (21, 21)
    # and a hand the run's hands call a stud hand has no follow spots (no concealed pair)
    stud = hands.with_columns(variant=pl.lit("stud"))
    assert S.file_counts([path], folded.lazy(), stud.lazy()).pairs.height == 0


def test_the_counts_per_hand_are_kept_only_for_pairs_the_test_can_judge(tmp_path: Path) -> None:
    # ann is in beside tom three times: fewer than FOLLOW_MIN_SPOTS spots each way, a pair the
    # follow test never judges, on all its hands or on a part of them; its counts per hand
    # (kept all through the scoring for the overlap re-check) are not kept, its pair counts are
    beside_ann = [hand(f"n{i}", {"sam": SHORT, "tom": DEEP, "ann": DEEP},
                       {"sam": "Kd Qd", "tom": WEAK, "ann": "5h 5s"},
                       [("post", "ann", "big_blind"), ("raise", "sam", None),
                        ("call", "tom", None), ("fold", "ann", None)]) for i in range(3)]
    events, seats = _by_seat(pl.concat([*FOLLOWER, *beside_ann]))
    path = tmp_path / "events.parquet"
    events.write_parquet(path)
    got = S.file_counts([path], seats.with_columns(folded_street=pl.lit("preflop")).lazy())
    assert got.hands is not None
    assert _direction(got, "tom@room", "ann@room")[:2] == (3, 3)
    assert _direction(got, "ann@room", "tom@room")[:2] == (3, 0)
    ann = got.hands.filter(pl.col("player_a") == "ann@room")
    assert ann.height == 0
    # tom and pat, judged, keep every hand's counts: they add up to the pair's
    pat = got.hands.filter((pl.col("player_a") == "pat@room") & (pl.col("player_b") == "tom@room"))
    assert pat.height == 20
    assert (pat["cdf_nb"].sum(), pat["cdf_kb"].sum()) == _direction(got, "tom@room", "pat@room")[:2]
    assert pat["cdf_eb"].sum() == pytest.approx(_direction(got, "tom@room", "pat@room")[2])
