"""The spots a check-down team's continue range is learned from, counted from the events
(issue 25, PATTERN-CHECKDOWN-ALLIN: "after a short all-in, two or more players with chips
check every remaining street into the side pot"; a team "follows short stacks into pots").

A *follow* spot: before the flop a player P acts on a bet or raise of another player X. Its
key is the 169-class of P's two hole cards (hi * 100 + lo * 2 + suited, ranks 2..A as 0..12);
he continues unless he folds. A target spot when X's raise was all-in or X started the hand
with fewer than 30 big blinds; beside P there: the players dealt in other than P and X
(`present`), and those of them not folded before P acts (`at`).

A *behind* spot: a player's first action on a board street when nobody bet or raised on it
before him (checked to). Its key is his made hand over his hole cards and the board so far;
he checks it down unless he bets or raises. A target spot when a third player went all-in on an
earlier street and is still in; beside P there: the players with chips on the street.

Target spots are one row each (StreetCounts.range_spots); every other spot is the player's own
baseline, counted per key (StreetCounts.range_base: n spots, k of them continued or checked).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from audit.collusion import streets as S

BB = 100
DEEP, SHORT = 100 * BB, 20 * BB
SEAT = {"tom": 1, "pat": 2, "sam": 3, "olga": 4, "dan": 5, "amy": 6}
_EVENT = {"hand_id": pl.String, "seq": pl.Int32, "kind": pl.String, "seat": pl.Int8,
          "player": pl.String, "amount": pl.Int64, "cards": pl.String, "detail": pl.String,
          "game": pl.Struct({"variant": pl.String, "big_blind": pl.Int64})}
AK_OFFSUIT = 12 * 100 + 11 * 2  # "As Kd": ace high, king low, offsuit
SEVEN_TWO = 5 * 100 + 0 * 2  # "7c 2d"


def hand(hand_id: str, stacks: dict[str, int], holes: dict[str, str],
         actions: list[tuple[str, str, str | None]]) -> pl.DataFrame:
    """A hold'em hand's events: its start, a seat per player dealt in (his stack), the hole
    cards of `holes`, then `actions` (kind, player, detail; ("board", cards, None) deals a
    street's board cards)."""
    rows: list[dict[str, object]] = [{"kind": "hand_started",
                                      "game": {"variant": "holdem", "big_blind": BB}}]
    rows += [{"kind": "seat", "player": p, "amount": s} for p, s in stacks.items()]
    rows += [{"kind": "deal", "player": p, "cards": c, "detail": "hole"}
             for p, c in holes.items()]
    rows += [{"kind": "deal", "cards": who, "detail": "board"} if kind == "board"
             else {"kind": kind, "player": who, "detail": detail}
             for kind, who, detail in actions]
    return pl.DataFrame(
        [{"hand_id": hand_id, "seq": i, "seat": SEAT.get(str(r.get("player"))), **r}
         for i, r in enumerate(rows)], schema=_EVENT)


def ranges(*hands: pl.DataFrame) -> S.StreetCounts:
    return S.street_counts(pl.concat(hands).lazy())


def base(got: S.StreetCounts, kind: str, player: str) -> list[tuple[int, int, int]]:
    """A player's base spots of a kind: (key, n, k) per key."""
    assert got.range_base is not None
    return (got.range_base.filter((pl.col("kind") == kind) & (pl.col("player") == player))
            .sort("key").select("key", "n", "k").rows())


def targets(got: S.StreetCounts, kind: str) -> list[tuple[str, str, int, bool, list[str],
                                                           list[str]]]:
    assert got.range_spots is not None
    return got.range_spots.filter(pl.col("kind") == kind).drop("kind").rows()


# sam, short, raises; olga folds; tom calls with A-K offsuit; pat folds his big blind
SHORT_RAISE = hand("f1", {"sam": SHORT, "olga": DEEP, "tom": DEEP, "pat": DEEP},
                   {"sam": "Kh Qh", "olga": "8s 3h", "tom": "As Kd", "pat": "7c 2d"},
                   [("post", "pat", "big_blind"), ("raise", "sam", None), ("fold", "olga", None),
                    ("call", "tom", None), ("fold", "pat", None)])
# the same with dan, deep, raising: nobody short, no all-in
DEEP_RAISE = hand("f2", {"dan": DEEP, "olga": DEEP, "tom": DEEP, "pat": DEEP},
                  {"dan": "Kh Qh", "olga": "8s 3h", "tom": "As Kd", "pat": "7c 2d"},
                  [("post", "pat", "big_blind"), ("raise", "dan", None), ("fold", "olga", None),
                   ("call", "tom", None), ("fold", "pat", None)])


def test_acting_on_a_short_stacks_raise_is_a_follow_target_spot_with_the_players_beside_him(
) -> None:
    got = ranges(SHORT_RAISE)
    # tom continues; olga folded before him (present, not at); pat acts after him (at);
    # sam, the raiser, is beside nobody
    assert targets(got, "follow") == [
        ("f1", "olga", 6 * 100 + 1 * 2, False, ["pat", "tom"], ["pat", "tom"]),
        ("f1", "tom", AK_OFFSUIT, True, ["olga", "pat"], ["pat"]),
        ("f1", "pat", SEVEN_TWO, False, ["olga", "tom"], ["tom"])]
    assert base(got, "follow", "tom") == []


def test_acting_on_a_deep_stacks_raise_is_the_players_own_baseline() -> None:
    got = ranges(DEEP_RAISE)
    assert targets(got, "follow") == []
    assert base(got, "follow", "tom") == [(AK_OFFSUIT, 1, 1)]
    assert base(got, "follow", "pat") == [(SEVEN_TWO, 1, 0)]
    # the blind is no raise: the first raiser faced nothing
    assert base(got, "follow", "dan") == []


def test_an_all_in_raise_is_a_target_whatever_the_raisers_stack() -> None:
    h = hand("f3", {"dan": DEEP, "tom": DEEP, "pat": DEEP},
             {"dan": "Kh Qh", "tom": "As Kd", "pat": "7c 2d"},
             [("post", "pat", "big_blind"), ("raise", "dan", "all_in"), ("call", "tom", None),
              ("fold", "pat", None)])
    assert [r[1:4] for r in targets(ranges(h), "follow")] == [
        ("tom", AK_OFFSUIT, True), ("pat", SEVEN_TWO, False)]


def test_only_known_two_card_holdings_are_keyed() -> None:
    h = hand("f4", {"sam": SHORT, "tom": DEEP, "pat": DEEP, "olga": DEEP},
             {"sam": "Kh Qh", "tom": "?? ??", "pat": "As Kd Qh Jc"},
             [("post", "pat", "big_blind"), ("raise", "sam", None), ("call", "tom", None),
              ("call", "pat", None), ("fold", "olga", None)])
    got = ranges(h)
    assert targets(got, "follow") == []
    assert got.range_base is not None and got.range_base.height == 0


# sam, short, is all-in before the flop; tom, pat and olga call. On the flop all three check to
# each other; on the turn tom bets, pat folds and olga calls
BEHIND_ALL_IN = hand(
    "b1", {"sam": SHORT, "tom": DEEP, "pat": DEEP, "olga": DEEP},
    {"sam": "Qh Qd", "tom": "As Kd", "pat": "7c 2d", "olga": "9s 9h"},
    [("raise", "sam", "all_in"), ("call", "tom", None), ("call", "pat", None),
     ("call", "olga", None), ("board", "Kc 8h 3s", None), ("check", "tom", None),
     ("check", "pat", None), ("check", "olga", None), ("board", "4d", None),
     ("bet", "tom", None), ("fold", "pat", None), ("call", "olga", None)])
# no all-in: tom and pat heads-up at the flop; tom checks, pat bets, tom folds
HEADS_UP = hand("b2", {"tom": DEEP, "pat": DEEP},
                {"tom": "As Kd", "pat": "7c 2d"},
                [("raise", "tom", None), ("call", "pat", None), ("board", "Kc 8h 3s", None),
                 ("check", "pat", None), ("bet", "tom", None), ("fold", "pat", None)])
PAIR_OF_KINGS, ACE_HIGH = 20 + 11, 12


def test_checked_to_behind_an_all_in_is_a_target_spot_with_the_players_with_chips() -> None:
    got = ranges(BEHIND_ALL_IN)
    # sam, all-in before the flop, has no chips after it: beside nobody
    assert targets(got, "behind") == [
        ("b1", "tom", PAIR_OF_KINGS, True, ["olga", "pat"], ["olga", "pat"]),
        ("b1", "pat", 5, True, ["olga", "tom"], ["olga", "tom"]),
        ("b1", "olga", 20 + 7, True, ["pat", "tom"], ["pat", "tom"]),
        # the turn: tom bets into the side pot (no check-down); pat and olga faced his bet
        ("b1", "tom", PAIR_OF_KINGS, False, ["olga", "pat"], ["olga", "pat"])]
    assert got.range_base is not None
    assert got.range_base.filter(pl.col("kind") == "behind").height == 0


def test_checked_to_without_an_all_in_is_the_players_own_baseline_heads_up_too() -> None:
    got = ranges(HEADS_UP)
    assert targets(got, "behind") == []
    assert base(got, "behind", "pat") == [(5, 1, 1)]  # checked (7 high)
    assert base(got, "behind", "tom") == [(PAIR_OF_KINGS, 1, 0)]  # checked to, bet


def test_a_fold_when_checked_to_is_no_bet() -> None:
    h = hand("b3", {"tom": DEEP, "pat": DEEP},
             {"tom": "As Kd", "pat": "7c 2d"},
             [("raise", "tom", None), ("call", "pat", None), ("board", "Kc 8h 3s", None),
              ("fold", "pat", None)])
    assert base(ranges(h), "behind", "pat") == [(5, 1, 1)]


def _key(hole: str, flop: str) -> int:
    """The made-hand key of the first player checked to on a flop: `hole` and the flop."""
    h = hand("k", {"tom": DEEP, "pat": DEEP}, {"tom": hole, "pat": "2c 2d"},
             [("raise", "pat", None), ("call", "tom", None), ("board", flop, None),
              ("check", "tom", None)])
    [(key, n, _)] = base(ranges(h), "behind", "tom")
    assert n == 1
    return key


@pytest.mark.parametrize(("hole", "flop", "key"), [
    ("9s 9h", "9c 9d Kh", 90),  # four of a kind
    ("Ks Kh", "Kc 7d 7h", 80),  # full house
    ("Ah 2h", "Kh 8h 4h", 70),  # flush
    ("9s Th", "Jc Qd Kh", 60),  # straight
    ("As 2h", "3c 4d 5h", 60),  # the wheel: the ace below the deuce
    ("Ks 2h", "3c 4d 5h", 11),  # four to the wheel without the ace: king high
    ("7s 7h", "7c Kd 2h", 50),  # three of a kind
    ("Ks 7h", "Kc 7d 2h", 40 + 11 // 4),  # two pair: by the higher pair's rank
    ("Ks 9h", "Kc 7d 2h", 20 + 11),  # a pair of kings
    ("4s 3h", "9c 9d Kh", 20 + 7),  # the board's pair of nines
    ("As 3h", "Kc 9d 5h", 12),  # ace high: his highest hole card
    ("8s 3h", "Kc Qd 5h", 6),  # eight high, the board's king not his
])
def test_the_made_hand_key_of_a_board(hole: str, flop: str, key: int) -> None:
    assert _key(hole, flop) == key


def test_the_made_hand_key_counts_the_turn_and_river_too() -> None:
    h = hand("k", {"tom": DEEP, "pat": DEEP}, {"tom": "Ah 2h", "pat": "2c 2d"},
             [("raise", "pat", None), ("call", "tom", None), ("board", "Kh 8h 4c", None),
              ("check", "tom", None), ("check", "pat", None), ("board", "3h", None),
              ("check", "tom", None), ("check", "pat", None)])
    # the flop: ace high; the turn: a flush (and a deuce pair for pat on both)
    assert base(ranges(h), "behind", "tom") == [(12, 1, 1), (70, 1, 1)]
    assert base(ranges(h), "behind", "pat") == [(20 + 0, 2, 2)]


HANDS = [SHORT_RAISE, DEEP_RAISE, BEHIND_ALL_IN, HEADS_UP]


def _by_seat(frame: pl.DataFrame, anonymous: str | None = None
             ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The run's seats naming the events' seats by room (`anonymous`: a seat of no player)."""
    seats = (frame.filter((pl.col("kind") == "seat") & pl.col("detail").is_null())
             .select("hand_id", "seat", folded_street=pl.lit(None, pl.String),
                     player=pl.when(pl.col("player").ne_missing(pl.lit(anonymous, pl.String)))
                     .then(pl.col("player") + "@room")))
    return frame, seats


def _renamed(got: S.StreetCounts, anonymous: str | None = None
             ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The range rows by log name as the run names them (`anonymous` left out)."""
    assert got.range_base is not None and got.range_spots is not None
    named = pl.element() + "@room"
    gone = f"{anonymous}@room"
    kept = pl.col("player").ne_missing(pl.lit(anonymous, pl.String))
    spots = (got.range_spots.filter(kept)
             .with_columns(pl.col("player") + "@room",
                           pl.col("present", "at").list.eval(named.filter(named != gone))))
    return (got.range_base.filter(kept)
            .with_columns(pl.col("player") + "@room"), spots)


def test_the_runs_seats_name_the_same_rows_as_the_logs_names() -> None:
    events, seats = _by_seat(pl.concat(HANDS))
    got = S.street_counts(events.lazy(), seats.lazy())
    expected_base, expected_spots = _renamed(ranges(*HANDS))
    assert got.range_base is not None and got.range_spots is not None
    assert got.range_spots.equals(expected_spots)
    assert got.range_base.equals(expected_base)
    assert got.range_spots.height == 6 + 4  # follow: 3 in f1, 3 in b1; behind: 4 in b1


def test_a_seat_of_no_player_is_left_out_as_the_player_and_beside_him() -> None:
    events, seats = _by_seat(pl.concat(HANDS), anonymous="pat")
    got = S.street_counts(events.lazy(), seats.lazy())
    expected_base, expected_spots = _renamed(ranges(*HANDS), anonymous="pat")
    assert got.range_spots is not None and got.range_base is not None
    assert got.range_spots.equals(expected_spots)
    assert got.range_base.equals(expected_base)
    assert "pat@room" not in got.range_spots.explode("present")["present"].to_list()


@pytest.mark.parametrize("rows", [S.RANGE_ROWS, 1])
def test_event_files_count_the_same_rows_as_the_events_together(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rows: int) -> None:
    # the base rows by seat are named whenever `rows` of them are held (1: after each file)
    monkeypatch.setattr(S, "RANGE_ROWS", rows)
    events, seats = _by_seat(pl.concat(HANDS))
    files = []
    for i, h in enumerate(HANDS):
        files.append(tmp_path / f"events{i}.parquet")
        events.filter(pl.col("hand_id") == h["hand_id"][0]).write_parquet(files[-1])
    # the heads-up hand saw the flop with two players only (no street count names its seats)
    for got, whole in ((S.file_counts(files, seats.lazy()),
                        S.street_counts(events.lazy(), seats.lazy())),
                       (S.file_counts(files), ranges(*HANDS))):
        assert got.range_base is not None and got.range_spots is not None
        assert whole.range_base is not None and whole.range_spots is not None
        assert got.range_base.equals(whole.range_base)
        assert got.range_spots.equals(whole.range_spots)


def test_parts_combined_are_the_whole() -> None:
    whole = ranges(*HANDS)
    parts = S.combine([ranges(BEHIND_ALL_IN, HEADS_UP), ranges(SHORT_RAISE, DEEP_RAISE)])
    assert parts.range_base is not None and whole.range_base is not None
    assert parts.range_spots is not None and whole.range_spots is not None
    assert parts.range_base.equals(whole.range_base)
    assert parts.range_spots.equals(whole.range_spots)
    # tom's follow and behind baseline from both parts
    assert base(parts, "follow", "tom") == [(AK_OFFSUIT, 1, 1)]


def test_no_hands_no_range_spots() -> None:
    got = S.combine([])
    assert got.range_base is not None and got.range_spots is not None
    assert got.range_base.schema == S.RANGE_BASE
    assert got.range_spots.schema == S.RANGE_SPOTS
    assert (got.range_base.height, got.range_spots.height) == (0, 0)
