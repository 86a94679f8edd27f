"""Per-street aggression behind a third player's all-in, read from the events (PATTERN-CHECKDOWN-
ALLIN: "after a short all-in, two or more players with chips check every remaining street into
the side pot").

The replay projections count a player's bets and raises per hand, not per street, so they cannot
tell a bet into the side pot behind an all-in from a bet before it. This module reads the events
themselves, one event file at a time (a hand never spans event files), columnar (polars, no loop
per hand), and keeps per player-street only what the test needs. Each event file is read once
(`read`) and one grid of player-streets made of it (`_grid`), from which every kind of spot
below is counted: a query per kind on the lazy events read and ordered each file again.

A *street* of a board game is the betting after a board deal (flop 1, turn 2, river 3); the
preflop round (0) is never one of these spots; stud and draw games deal no board, so their
hands have no such spots (untested by this measure). A player *has chips* on a street when he is in
the hand at its start: not folded and not all-in on an earlier street. Two kinds of spots per
player-street in which he has chips and at least one other player has chips too:

- *behind*: a player went all-in on an earlier street (a live side pot to bet into, or a
  check-down to agree on);
- *ref* (reference): nobody is all-in and two or more opponents have chips: the same player's
  aggression in a comparable multiway spot without an all-in.

A spot's outcome is whether the player bet or raised on that street.

`street_counts` returns per pair (A < B) the streets in which both had chips behind a third
player's all-in (`cdx_n`) and those of them in which A (`cdx_ka`) or B (`cdx_kb`) bet or raised,
and per player his behind spots (`cdx_h`) and aggressive ones (`cdx_c`), his reference spots
(`cdx_rn`) and aggressive ones (`cdx_rk`) (audit/collusion/leads.py: the `checkdown_bets` test).

And a third kind of spot (PATTERN-SOFTPLAY, "always checking through whenever heads-up against
one particular opponent"): *heads-up* streets of a pot three or more saw the flop of, on which
only two players are left, both with chips (`hu_spots`). The projections' heads-up pots are
those only two entered preflop; a pot that became heads-up on a later street is multiway there,
and how the last two bet into each other from then on is seen only street by street. Per pair
the heads-up streets between them (`hus_n`) and A's (`hus_ka`) and B's (`hus_kb`) bets and
raises there, per player his heads-up streets (`hus_h`) and aggressive ones (`hus_c`)
(audit/collusion/leads.py: the `softplay_streets` test).

And whipsaw streets (PATTERN-WHIPSAW, "two players repeatedly re-raising each other while a
third player is caught calling in between"): the streets after the flop on which a player bet or
raised while three or more players had chips at the street's start (`ws_spots`): two partners
raising around a third player. Per pair the hands in which on some such street both A and B bet
or raised (`wss_k`), and of them those in which a third player called on such a street
(`wss_c`: caught between them; the rest he folded to them or was all-in). The projections
count the bets and raises per hand: a pair betting and raising after the flop in a pot that was
multiway preflop but heads-up by then (a chip dumper and his receiver) reads there as raising
around a third player (audit/collusion/leads.py: the `whipsaw` test's raises).

And follow spots, before the flop (PATTERN-CHECKDOWN-ALLIN: a check-down team "follows short stacks
into pots"): a player P acts (calls, raises or folds) on a bet or raise of a third player X
who started the hand with less than SHORT_STACK_BB big blinds, or whose raise was all-in, with
P's hole cards known (features.preflop_strength; button games). He *continues* unless he folds.
A partner Q is *in* at that spot when dealt in, not folded before P acts, and neither P nor X.
Per pair (A < B) and per hand: A's spots with B in (`cdf_na`) and his continues there
(`cdf_ka`), and what A's own play predicts for them (`cdf_ea`): per spot his continue rate at
the same strength (a bin of FOLLOW_BINS) in his spots without B in, shrunk toward his rate over
all his spots with FOLLOW_PRIOR spots; the same for B (`_b`). The baseline is the hands counted
together (`combine` works it out again over all the parts: a part's spots are judged on the
whole's), and leaves the partner's spots out: a team sits together most of the time, and over
all his spots a player's rate is mostly his play beside his partner (audit/collusion/leads.py:
the `checkdown_follow` test).

And the range spots (audit/collusion/range_spots.py: every follow spot, and every first action
on a board street checked to, keyed by the player's hand strength), for a model of each
player's continue range (issue 25): the target spots one row each with the players beside
(`range_spots`), the others counted per player and key (`range_base`), named as every count
here; `combine` sums the base and sets the target rows one after the other.
"""

from __future__ import annotations

import math
import shutil
import tempfile
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from audit.collusion import range_spots as R
from audit.collusion.features import BUTTON_GAMES, preflop_strength

ACTIONS = ("check", "bet", "call", "raise", "fold")
AGGRESSIVE = ("bet", "raise")
PAIR_COLUMNS = ("cdx_n", "cdx_ka", "cdx_kb", "hus_n", "hus_ka", "hus_kb", "wss_k", "wss_c")
PLAYER_COLUMNS = ("cdx_h", "cdx_c", "cdx_rn", "cdx_rk", "hus_h", "hus_c")
_KEYS = ["player_a", "player_b"]
# the follow spots (kept out of PAIR_COLUMNS: leads.with_streets casts those to UInt32, and the
# expected continues are fractions)
FOLLOW_COUNTS = ("cdf_na", "cdf_ka", "cdf_nb", "cdf_kb")
FOLLOW_EXPECTED = ("cdf_ea", "cdf_eb")
# each per-hand row's strength bin of A's and B's spots there (a player's hole cards, and so his
# bin, are one for the hand): what `combine` needs to work e out again over all the parts
FOLLOW_BIN = ("cdf_bin_a", "cdf_bin_b")
SHORT_STACK_BB = 30  # a stack shorter than this many big blinds at the start of the hand
# the strength bins' lower edges (twice Chen's points): the weakest hands (below 0, as 7-2
# offsuit) a bin of their own, continued with less often than those of 0 to 8
FOLLOW_BINS = (0, 8, 12, 16, 20)
# the fewest spots a direction of the follow test is judged on (leads.FEATURES): a pair with
# fewer each way is never tested, on all its hands or on a part of them
FOLLOW_MIN_SPOTS = 5
FOLLOW_PRIOR = 2  # pseudo-spots at the player's overall continue rate
FOLLOW_ACTIONS = ("call", "raise", "bet", "fold")
SEAT_ROWS = 8_000_000  # seat rows picked at a time for `file_counts`
# the pair counts' type, per hand and per pair: the pair table's own (leads.with_streets); the
# counts per hand are kept all through the scoring for the overlap re-check, eight columns of 8
# bytes a row in Int64
COUNT = pl.UInt32
# the range spots (range_spots.py): per kind, player and key his base spots and the times he
# acted as a team would there; one row per target spot with the players there beside him
RANGE_BASE = pl.Schema({"kind": pl.String, "player": pl.String, "key": R.KEY, "n": pl.Int64,
                        "k": pl.Int64})
RANGE_SPOTS = pl.Schema({"hand_id": pl.String, "kind": pl.String, "player": pl.String,
                         "key": R.KEY, "y": pl.Boolean, "present": pl.List(pl.String),
                         "at": pl.List(pl.String)})
# the range spots' rows by seat (base rows one per hand, player and key; target spots and the
# players beside them) `file_counts` holds before it names them: a few rows a hand, named file
# by file they were a scan of the seats per file; about 7 rows a hand (416,676 at 60,000
# simulated hands), held all they were 260 MB of RSS more at 200,000 (637 MB, 377 without them)
RANGE_ROWS = 2_000_000


@dataclass(frozen=True, slots=True)
class StreetCounts:
    """Per pair (player_a, player_b, PAIR_COLUMNS) and per player (player, PLAYER_COLUMNS);
    `hands`: the pair counts per hand (hand_id, player_a, player_b, PAIR_COLUMNS; `pairs` is
    their sum), for the overlap re-check (leads.resolve_overlaps), which judges a lead again
    on part of its hands; None when not kept (then such a re-check is undecided)."""

    pairs: pl.DataFrame
    players: pl.DataFrame
    hands: pl.DataFrame | None = None
    # per player and strength bin (player, bin, n, k) his follow spots and continues: the
    # baseline of the expected continues (FOLLOW_EXPECTED), kept to work them out again over
    # more hands (`combine`)
    follow: pl.DataFrame | None = None
    # the range spots (RANGE_BASE: per kind, player and key; RANGE_SPOTS: per target spot; the
    # kinds and keys: audit/collusion/range_spots.py)
    range_base: pl.DataFrame | None = None
    range_spots: pl.DataFrame | None = None


class HandCounts:
    """The pair counts per hand (`StreetCounts.hands`: hand_id, player_a, player_b, PAIR_COLUMNS
    and the follow counts) for one ranking, read back only where asked: the pairs' rows
    (`of_pairs`: the overlap re-check's jobs, the pairs wanted as evidence) or the hands' rows
    (`of_hands`: the hands the lead players entered).

    With `spill` the rows are kept in a Parquet file in a temporary directory, not in memory:
    held all through the scoring, at 5,000,000 hands they were 1.71M rows, 171 MB beside the pair
    table at the collusion stage's peak, and the questions are about a few pairs and players.
    `close` (or dropping the object) removes the directory."""

    def __init__(self, hands: pl.DataFrame, spill: bool = False) -> None:
        self.columns: list[str] = hands.columns
        self.schema = hands.schema
        self.height = hands.height
        self._frame: pl.DataFrame | None = None
        self._file: Path | None = None
        self._cleanup: weakref.finalize | None = None
        if not spill:
            self._frame = hands
            return
        d = Path(tempfile.mkdtemp(prefix="poker-audit-street-hands-"))
        self._cleanup = weakref.finalize(self, shutil.rmtree, d, True)
        self._file = d / "hands.parquet"
        # (row groups of 100,000 rows: a query filters each as it is read, never the whole)
        hands.write_parquet(self._file, compression="lz4", row_group_size=100_000)

    @property
    def spilled(self) -> bool:
        """Whether the rows are kept on disk (none in memory)."""
        return self._frame is None

    def close(self) -> None:
        """Remove the spilled file (the rows are gone: ask nothing after this)."""
        if self._cleanup is not None:
            self._cleanup()
        self._cleanup = None
        self._file = None

    def _rows(self) -> pl.LazyFrame:
        if self._frame is not None:
            return self._frame.lazy()
        if self._file is None:
            # (a question after `close` would read no file: say so, not "file not found")
            raise RuntimeError("the counts per hand were closed: their file is removed")
        return pl.scan_parquet(self._file)

    def of_pairs(self, pairs: pl.DataFrame) -> pl.DataFrame:
        """The rows of the pairs of `pairs` (player_a, player_b)."""
        keys = ["player_a", "player_b"]
        pairs = pairs.select(keys).unique()
        # (the players picked as the file is read, then the pairs among their rows)
        return (self._rows().filter(pl.col("player_a").is_in(pairs["player_a"].implode())
                                    & pl.col("player_b").is_in(pairs["player_b"].implode()))
                .join(pairs.lazy(), on=keys, how="semi", maintain_order="left").collect())

    def of_hands(self, hand_ids: pl.Series) -> pl.DataFrame:
        """The rows of the hands of `hand_ids`."""
        return (self._rows().filter(pl.col("hand_id").is_in(hand_ids.unique().implode()))
                .collect())


def hand_counts(hands: pl.DataFrame | HandCounts | None) -> HandCounts | None:
    """The counts per hand as `HandCounts` (a frame kept in memory as it is)."""
    if hands is None or isinstance(hands, HandCounts):
        return hands
    return HandCounts(hands)


def read(events: pl.LazyFrame, who: str = "player", game: bool = True) -> pl.DataFrame:
    """The events the street counts read, read once: each hand's actions by a player (`who`)
    and its board deals, in order, each numbered by the street it belongs to (0 preflop, 1 the
    flop's and on); and for the follow spots each hand's start (big_blind, variant: the game is
    on a hand's first event only), the players dealt in (`seat` events without detail, the
    stack in `amount`) and their hole cards and for the range spots the boards' (`cards`);
    without the game when `game` is False (bb and variant null: a run's hands have them, and
    the events' game, a struct of 19 fields decoded for every event, was two thirds of the
    read). Every count of this module is worked out from this frame: each query on the lazy
    events read and ordered them again (eleven reads of each event file for the check-down and
    heads-up streets; fourteen with the whipsaw streets' own, which read them once more)."""
    names = events.collect_schema().names()
    board = (pl.col("kind") == "deal") & (pl.col("detail") == "board")
    kind, named = pl.col("kind"), pl.col(who).is_not_null()
    start = kind == "hand_started"
    dealt = (kind == "seat") & pl.col("detail").is_null() & named
    hole = (kind == "deal") & (pl.col("detail") == "hole") & named
    # (frames without the columns, as a log without stacks or a game: no follow spots)
    struct = pl.col("game").struct if game and "game" in names else None
    extra = [
        (pl.when(dealt).then(pl.col("amount")) if "amount" in names
         else pl.lit(None, pl.Int64)).alias("amount"),
        (pl.when(hole | board).then(pl.col("cards")) if "cards" in names
         else pl.lit(None, pl.String)).alias("cards"),
        (struct.field("big_blind") if struct is not None else pl.lit(None, pl.Int64))
        .alias("bb"),
        (struct.field("variant") if struct is not None else pl.lit(None, pl.String))
        .alias("variant")]
    # the boards dealt so far in the frame, less those of the hands before (in hand order:
    # counted per hand, `over`, it was a third of the read once all hands were read)
    boards = board.cast(pl.Int32).cum_sum()
    first = (pl.col("hand_id") != pl.col("hand_id").shift(1)).fill_null(True)
    before = pl.when(first).then(boards - board.cast(pl.Int32)).forward_fill()
    # (the other events are dropped before ordering: they move no street and are no action)
    return (events.select("hand_id", "seq", "kind", who, "detail", *extra)
            .filter(kind.is_in(ACTIONS) & named | board | start | dealt | hole)
            .sort("hand_id", "seq")
            .with_columns(street=(boards - before).cast(pl.Int64))
            .collect())


@dataclass(frozen=True, slots=True)
class _Grid:
    """One row per player-street of the board streets of a hand (hand_id, `who`, street; inn:
    not folded on an earlier street; allin_before: all-in on an earlier one; chips: in and not
    all-in), and per player-street he acted on after the flop (`acts`: aggr, he bet or raised;
    at, the event number of his first bet or raise; called, he called; fold_at, his fold's)."""

    rows: pl.LazyFrame
    acts: pl.LazyFrame
    who: str


def _grid(d: pl.DataFrame, who: str) -> _Grid:
    """The grid of the events `read` made (made once: every kind of spot is read off it)."""
    # the hands that saw a flop only (the frame in hand order: each row given the street of its
    # hand's last row), a third of those read for the follow spots
    last_row = (pl.col("hand_id") != pl.col("hand_id").shift(-1)).fill_null(True)
    d_ = d.lazy().filter(pl.when(last_row).then(pl.col("street")).backward_fill() >= 1)
    acts = d_.filter(pl.col("kind").is_in(ACTIONS) & pl.col(who).is_not_null())
    players = acts.group_by("hand_id", who).agg(
        fold_st=pl.col("street").filter(pl.col("kind") == "fold").min(),
        allin_st=pl.col("street").filter(pl.col("detail") == "all_in").min())
    last = d_.group_by("hand_id").agg(last=pl.col("street").max())
    aggressive = pl.col("kind").is_in(AGGRESSIVE)
    aggr = acts.filter(pl.col("street") >= 1).group_by("hand_id", who, "street").agg(
        aggr=aggressive.any(), at=pl.col("seq").filter(aggressive).min(),
        called=(pl.col("kind") == "call").any(),
        fold_at=pl.col("seq").filter(pl.col("kind") == "fold").min())
    # (a spot of any kind needs three players in at the flop: the hands read for the follow
    # spots before it, two thirds of them, are left out of the grid)
    flop = (players.filter(pl.col("fold_st").is_null() | (pl.col("fold_st") >= 1))
            .group_by("hand_id").len().filter(pl.col("len") >= 3))
    grid = (players.join(last, on="hand_id").join(flop, on="hand_id", how="semi")
            .filter(pl.col("last") >= 1)
            .with_columns(street=pl.int_ranges(1, pl.col("last") + 1, dtype=pl.Int8))
            .explode("street")
            .with_columns(
                inn=pl.col("fold_st").is_null() | (pl.col("fold_st") >= pl.col("street")),
                allin_before=(pl.col("allin_st") < pl.col("street")).fill_null(False))
            .select("hand_id", who, "street", "inn", "allin_before",
                    chips=pl.col("inn") & ~pl.col("allin_before")))
    rows, acted = pl.collect_all([grid, aggr])
    return _Grid(rows.lazy(), acted.lazy(), who)


def _spots(g: _Grid) -> pl.LazyFrame:
    """`spots` of a grid."""
    who = g.who
    per_street = g.rows.group_by("hand_id", "street").agg(n_chips=pl.col("chips").sum(),
                                                          n_allin=pl.col("allin_before").sum())
    return (g.rows.filter("chips").join(per_street, on=["hand_id", "street"])
            .filter((pl.col("n_allin") >= 1) & (pl.col("n_chips") >= 2)
                    | (pl.col("n_allin") == 0) & (pl.col("n_chips") >= 3))
            .join(g.acts, on=["hand_id", who, "street"], how="left")
            .select("hand_id", who, "street", behind=pl.col("n_allin") >= 1,
                    aggr=pl.col("aggr").fill_null(False)))


@dataclass(frozen=True, slots=True)
class _Follows:
    """The follow spots of a frame `read` made (`who` naming the players): per spot (hand_id,
    `who`, bin: his strength bin, cont: he called or raised), and per spot each player in at it
    beside P and X (hand_id, `who`: P, partner, bin, cont)."""

    spots: pl.LazyFrame
    partners: pl.LazyFrame
    who: str


def _strength_bin(strength: pl.Expr) -> pl.Expr:
    """The FOLLOW_BINS bin of a preflop strength (0: below the first edge)."""
    return pl.sum_horizontal([(strength >= edge).cast(pl.Int8) for edge in FOLLOW_BINS]
                             ).cast(pl.Int8)


def _preflop(d: pl.DataFrame, who: str, games: pl.DataFrame | None = None) -> R.Preflop:
    """The betting before the flop of a frame `read` made (the hands' games, hand_id, bb,
    variant: `games`, or when None the frame's own), of the button games' hands only: a stud or
    draw hand has no starting hand of two or more concealed cards to judge (`preflop_strength`),
    and with no board all its betting is street 0 here."""
    game = (d.filter(pl.col("kind") == "hand_started").select("hand_id", "bb", "variant")
            if games is None else games.select("hand_id", "bb", "variant"))
    game = game.filter(pl.col("variant").cast(pl.String).is_in(BUTTON_GAMES))
    return R.preflop(d, who, game, SHORT_STACK_BB)


def _follows(d: pl.DataFrame, who: str, games: pl.DataFrame | None = None,
             p: R.Preflop | None = None) -> _Follows:
    """`follow_spots` of a frame `read` made (the hands' games as `_preflop`; `p`: its
    `_preflop` when already worked out)."""
    if p is None:
        p = _preflop(d, who, games)
    faced = p.faced.filter("target")
    # the hole cards of the players at those spots, their strength worked out once per
    # distinct starting hand (a few thousand of them)
    holes = (p.pre.filter((pl.col("kind") == "deal") & (pl.col("detail") == "hole"))
             .select("hand_id", who, "cards")
             .join(faced.select("hand_id", who).unique(), on=["hand_id", who], how="semi")
             .join(p.game.select("hand_id", "variant"), on="hand_id"))
    strength = (holes.select("cards", "variant").unique()
                .with_columns(strength=preflop_strength(pl.col("cards"),
                                                        pl.col("variant").cast(pl.String))))
    holes = (holes.join(strength, on=["cards", "variant"], how="left")
             .filter(pl.col("strength").is_not_null())
             .select("hand_id", who, bin=_strength_bin(pl.col("strength"))))
    spots = (faced.join(holes, on=["hand_id", who])
             .select("hand_id", who, "x", "seq", "bin", cont=pl.col("kind") != "fold"))
    folds = (p.acts.filter(pl.col("kind") == "fold").group_by("hand_id", who)
             .agg(fold_at=pl.col("seq").min()))
    partners = (spots
                .join(p.dealt.select("hand_id", partner=pl.col(who)), on="hand_id")
                .filter((pl.col("partner") != pl.col(who)) & (pl.col("partner") != pl.col("x")))
                .join(folds.rename({who: "partner"}), on=["hand_id", "partner"], how="left")
                .filter(pl.col("fold_at").is_null() | (pl.col("fold_at") > pl.col("seq")))
                .select("hand_id", who, "partner", "bin", "cont"))
    return _Follows(spots.select("hand_id", who, "bin", "cont").lazy(), partners.lazy(), who)


def _range_rows(d: pl.DataFrame, who: str, p: R.Preflop) -> R.RangeRows:
    """The range spots of a frame `read` made, by `who` (`p`: its `_preflop`)."""
    follow, behind = R.follow_rows(p, who), R.behind_rows(d, who)
    return R.RangeRows(*(pl.concat([getattr(follow, f), getattr(behind, f)])
                         for f in ("spots", "others", "base")))


def _range_counts(spots: pl.DataFrame, others: pl.DataFrame, base: pl.DataFrame
                  ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The range spots of `R.RangeRows` frames named by player (who = "player", other the
    other players' names) as StreetCounts keeps them: the base counted per kind, player and key
    (RANGE_BASE), the target spots one row each with the players there beside P, by name
    (RANGE_SPOTS), in hand order and within a hand in the order of the events."""
    spot = ["hand_id", "kind", "seq"]
    lists = others.group_by(spot).agg(present=pl.col("other").sort(),
                                      at=pl.col("other").filter("at").sort())
    empty_list = pl.lit([], pl.List(pl.String))
    spots = (spots.join(lists, on=spot, how="left")
             .with_columns(pl.col("present", "at").fill_null(empty_list))
             .with_columns(pl.col("kind").cast(pl.String)).sort(spot)
             .select(list(RANGE_SPOTS)).cast(RANGE_SPOTS))
    return _range_base(base), spots


def _range_base(base: pl.DataFrame) -> pl.DataFrame:
    """Base range spots (kind, player, key, n, k, per hand or not) counted per kind, player
    and key (RANGE_BASE)."""
    return (base.group_by("kind", "player", "key").agg(pl.col("n", "k").cast(pl.Int64).sum())
            .cast(RANGE_BASE).sort("kind", "player", "key"))


def _named_range(spots: pl.DataFrame, others: pl.DataFrame, base: pl.DataFrame,
                 seats: pl.LazyFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """`R.RangeRows` frames by seat named by the run's `seats` (hand_id, seat, player; streamed:
    only the seats of those rows are kept); a seat of no player (an anonymous table's) is left
    out, as the player of a spot or beside him. The base rows are counted per kind, player and
    key (its `n` and `k` summed)."""
    # (the keys not made unique: a semi join keeps each seat once whatever their repeats, and
    # making them unique was a fifth of the naming)
    keys = pl.concat([spots.select("hand_id", "seat"),
                      others.select("hand_id", seat=pl.col("other")),
                      base.select("hand_id", "seat")])
    names = (seats.select("hand_id", "seat", "player")
             .join(keys.lazy(), on=["hand_id", "seat"], how="semi")
             .filter(pl.col("player").is_not_null()).collect(engine="streaming"))
    del keys
    spots = spots.join(names, on=["hand_id", "seat"]).drop("seat")
    others = (others.join(names.select("hand_id", other="seat", name="player"),
                          on=["hand_id", "other"])
              .select("hand_id", "kind", "seq", other="name", at="at"))
    base = _range_base(base.join(names, on=["hand_id", "seat"]).drop("seat"))
    return spots, others, base


def follow_spots(events: pl.LazyFrame, who: str = "player") -> pl.LazyFrame:
    """One row per follow spot before the flop (hand_id, `who`: the player acting, bin: his
    hole cards' strength bin, cont: he called or raised; a fold is no continue)."""
    return _follows(read(events, who), who).spots


def _hu_spots(g: _Grid) -> pl.LazyFrame:
    """`hu_spots` of a grid."""
    who = g.who
    flop = (g.rows.filter(pl.col("street") == 1).group_by("hand_id")
            .agg(n_flop=pl.col("inn").sum()))
    per_street = g.rows.group_by("hand_id", "street").agg(n_in=pl.col("inn").sum(),
                                                          n_chips=pl.col("chips").sum())
    return (g.rows.filter("chips").join(per_street, on=["hand_id", "street"])
            .join(flop, on="hand_id")
            .filter((pl.col("n_in") == 2) & (pl.col("n_chips") == 2) & (pl.col("n_flop") >= 3))
            .join(g.acts, on=["hand_id", who, "street"], how="left")
            .select("hand_id", who, "street", aggr=pl.col("aggr").fill_null(False)))


def _ws_spots(g: _Grid) -> pl.LazyFrame:
    """`ws_spots` of a grid."""
    who, keys = g.who, ["hand_id", "street"]
    mine = (g.rows.filter("chips").select("hand_id", who, "street")
            .join(g.acts, on=["hand_id", who, "street"], how="left")
            .with_columns(pl.col("aggr", "called").fill_null(False)))
    # (the streets three or more started with chips on which two of them bet or raised: a few
    # of all, the only ones a pair can raise around a third player on)
    two = (mine.group_by(keys)
           .agg(n_chips=pl.len(), n_aggr=pl.col("aggr").sum(),
                callers=pl.col("called").sum().cast(pl.Int32))
           .filter((pl.col("n_chips") >= 3) & (pl.col("n_aggr") >= 2)))
    # the folds of those who started the street with chips, in order: after the (n - 2)th of
    # n only two are left, and a raise then is around nobody
    until = (mine.join(two, on=keys, how="semi")
             .group_by(keys).agg(folds=pl.col("fold_at").drop_nulls().sort())
             .join(two, on=keys)
             .select(*keys, "callers", until=pl.col("folds").list.get(
                 pl.col("n_chips").cast(pl.Int64) - 3, null_on_oob=True)))
    return (mine.filter("aggr").join(until, on=keys)
            .select("hand_id", who, "street", "at", "until", "called", "callers"))


def spots(events: pl.LazyFrame, who: str = "player") -> pl.LazyFrame:
    """One row per player-street spot (hand_id, `who`, street, behind, aggr): `behind` True
    behind a third player's earlier all-in, False in a reference spot. `who` names the
    column telling the players of a hand apart (`seat` serves as well as `player`)."""
    return _spots(_grid(read(events, who), who))


def hu_spots(events: pl.LazyFrame, who: str = "player") -> pl.LazyFrame:
    """One row per player-street (hand_id, `who`, street, aggr) on which only two players are
    left in the hand, both with chips, in a pot three or more saw the flop of."""
    return _hu_spots(_grid(read(events, who), who))


def ws_spots(events: pl.LazyFrame, who: str = "player") -> pl.LazyFrame:
    """One row per player-street after the flop on which he bet or raised while three or more
    players had chips at its start, two or more of whom bet or raised on it (hand_id, `who`,
    street; at: the event number of his first bet or raise on it; until: that of the fold that
    left two of those players in, null when none did; called: he called on it too; callers: the
    players who called on it)."""
    return _ws_spots(_grid(read(events, who), who))


def _whipsaw_hands(w: pl.DataFrame) -> pl.DataFrame:
    """Per hand and pair (A < B) of the players of the same hand-streets of `w` (`ws_spots`
    rows, `player` naming them): 1 in `wss_k` when both bet or raised on such a street with a
    third player still in (the later one's first bet or raise before the fold that left only
    two), and in `wss_c` when a third player called on one of those streets."""
    a = w.rename({"player": "player_a", "called": "called_a", "at": "at_a"})
    b = w.select("hand_id", "street", player_b="player", called_b="called", at_b="at")
    return (a.join(b, on=["hand_id", "street"])
            .filter((pl.col("player_a") < pl.col("player_b"))
                    & (pl.col("until").is_null()
                       | (pl.max_horizontal("at_a", "at_b") < pl.col("until"))))
            .with_columns(third=pl.col("callers") - pl.col("called_a").cast(pl.Int32)
                          - pl.col("called_b").cast(pl.Int32) > 0)
            .group_by("hand_id", *_KEYS).agg(wss_k=pl.lit(1, COUNT),
                                             wss_c=pl.col("third").any().cast(COUNT)))


def _pair_streets(s: pl.DataFrame, n: str, ka: str, kb: str) -> pl.DataFrame:
    """Per hand and pair (A < B) of the players of the same hand-streets of `s` (hand_id,
    player, street, aggr): the streets (`n`) and A's (`ka`) and B's (`kb`) aggressive ones."""
    return (s.rename({"player": "player_a", "aggr": "aggr_a"})
            .join(s.rename({"player": "player_b", "aggr": "aggr_b"}), on=["hand_id", "street"])
            .filter(pl.col("player_a") < pl.col("player_b"))
            .group_by("hand_id", *_KEYS).agg(pl.len().cast(COUNT).alias(n),
                                 pl.col("aggr_a").sum().cast(COUNT).alias(ka),
                                 pl.col("aggr_b").sum().cast(COUNT).alias(kb)))


def _rate_table(together: pl.DataFrame, follow: pl.DataFrame) -> pl.DataFrame:
    """Per player, partner and strength bin (`together`: player, partner, bin, n, k: his follow
    spots with the partner in and his continues there) his expected continue rate at each (r0):
    his rate at that bin in his spots without the partner (`follow`: player, bin, n, k, all his
    spots), shrunk toward his rate over all his spots with FOLLOW_PRIOR spots."""
    overall = follow.group_by("player").agg(
        rate=pl.col("k").sum().cast(pl.Float64) / pl.col("n").sum())
    per_bin = follow.group_by("player", "bin").agg(n_bin=pl.col("n").sum(),
                                                    k_bin=pl.col("k").sum())
    return (together.join(per_bin, on=["player", "bin"], how="left")
            .join(overall, on="player", how="left")
            .select("player", "partner", "bin", "n", "k",
                    r0=((pl.col("k_bin") - pl.col("k")) + FOLLOW_PRIOR * pl.col("rate"))
                    / ((pl.col("n_bin") - pl.col("n")) + FOLLOW_PRIOR)))


def _follow_pairs(r: pl.DataFrame) -> pl.DataFrame:
    """Per pair (A < B) of a `_rate_table`: FOLLOW_COUNTS and FOLLOW_EXPECTED, each direction's
    expected continues the sum over its strength bins (five terms at most, in order: the same
    sum whatever the order of the hands)."""
    per = (r.with_columns(e=pl.col("n") * pl.col("r0")).sort("player", "partner", "bin")
           .group_by("player", "partner", maintain_order=True)
           .agg(n=pl.col("n").sum().cast(COUNT), k=pl.col("k").sum().cast(COUNT),
                e=pl.col("e").sum()))
    a = (per.filter(pl.col("player") < pl.col("partner"))
         .select(player_a="player", player_b="partner", cdf_na="n", cdf_ka="k", cdf_ea="e"))
    b = (per.filter(pl.col("player") > pl.col("partner"))
         .select(player_a="partner", player_b="player", cdf_nb="n", cdf_kb="k", cdf_eb="e"))
    return (a.join(b, on=_KEYS, how="full", coalesce=True)
            .with_columns(pl.col(*FOLLOW_COUNTS).fill_null(0),
                          pl.col(*FOLLOW_EXPECTED).fill_null(0.0))
            .select(*_KEYS, *FOLLOW_COUNTS, *FOLLOW_EXPECTED))


def _follow_counts(fs: pl.DataFrame, fp: pl.DataFrame, judged_only: bool = False
                   ) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The follow spots' counts (`fs`: per spot player, bin, cont; `fp`: per spot each partner
    in, hand_id, player, partner, bin, cont): per hand and pair (hand_id, A < B, FOLLOW_COUNTS,
    FOLLOW_EXPECTED, FOLLOW_BIN), per pair (`_follow_pairs`) and per player and bin (the
    baseline: player, bin, n, k). Worked out per player and partner (each row one direction),
    the expected continues joined once before the two directions are set side by side.
    `judged_only`: the rows per hand of the pairs the follow test can judge only (`_judged`):
    right only when `fs` and `fp` are all the spots there are, not a part of them."""
    follow = (fs.group_by("player", "bin")
              .agg(n=pl.len().cast(pl.Int64), k=pl.col("cont").sum().cast(pl.Int64))
              .sort("player", "bin"))
    per = fp.group_by("hand_id", "player", "partner").agg(
        bin=pl.col("bin").first(), n=pl.len().cast(COUNT), k=pl.col("cont").sum().cast(COUNT))
    r = _rate_table(per.group_by("player", "partner", "bin")
                    .agg(pl.col("n", "k").sum().cast(pl.Int64)), follow)
    if judged_only:
        per = per.join(_judged(r), on=["player", "partner"], how="semi")
    per = per.join(r.select("player", "partner", "bin", "r0"),
                   on=["player", "partner", "bin"], how="left")
    e = pl.col("n").cast(pl.Float64) * pl.col("r0")
    a = (per.filter(pl.col("player") < pl.col("partner"))
         .select("hand_id", player_a="player", player_b="partner", cdf_na="n", cdf_ka="k",
                 cdf_ea=e, cdf_bin_a="bin"))
    b = (per.filter(pl.col("player") > pl.col("partner"))
         .select("hand_id", player_a="partner", player_b="player", cdf_nb="n", cdf_kb="k",
                 cdf_eb=e, cdf_bin_b="bin"))
    del per
    hands = (a.join(b, on=["hand_id", *_KEYS], how="full", coalesce=True)
             .with_columns(pl.col(*FOLLOW_COUNTS).fill_null(0),
                           pl.col(*FOLLOW_EXPECTED).fill_null(0.0))
             .select("hand_id", *_KEYS, *FOLLOW_COUNTS, *FOLLOW_EXPECTED, *FOLLOW_BIN))
    return hands, _follow_pairs(r), follow


def _beside(street: pl.DataFrame, follow: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """Street counts (keys, PAIR_COLUMNS) and follow counts (keys, FOLLOW_COUNTS,
    FOLLOW_EXPECTED and per hand FOLLOW_BIN) of the same hands or pairs as one row each,
    zero where either has none, in key order."""
    bins = [c for c in FOLLOW_BIN if c in follow.columns]
    return (street.select(*keys, *PAIR_COLUMNS)
            .join(follow, on=keys, how="full", coalesce=True)
            .with_columns(pl.col(*PAIR_COLUMNS, *FOLLOW_COUNTS).fill_null(0),
                          pl.col(*FOLLOW_EXPECTED).fill_null(0.0))
            .select(*keys, *PAIR_COLUMNS, *FOLLOW_COUNTS, *FOLLOW_EXPECTED, *bins).sort(keys))


def _with_expected(hands: pl.DataFrame, follow: pl.DataFrame
                   ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`hands` (per hand and pair, with FOLLOW_COUNTS and FOLLOW_BIN) with the expected
    continues (FOLLOW_EXPECTED) worked out again on the baseline of `follow` (player, bin, n,
    k), and the pairs' follow counts (`_follow_pairs`)."""
    directed = pl.concat([
        hands.filter(pl.col(f"cdf_n{x}") > 0).select(
            player=pl.col(f"player_{x}"), partner=pl.col(f"player_{y}"),
            bin=pl.col(f"cdf_bin_{x}"), n=pl.col(f"cdf_n{x}").cast(pl.Int64),
            k=pl.col(f"cdf_k{x}").cast(pl.Int64))
        for x, y in (("a", "b"), ("b", "a"))])
    r = _rate_table(directed.group_by("player", "partner", "bin").agg(pl.col("n", "k").sum()),
                    follow)
    e = hands.drop(FOLLOW_EXPECTED, strict=False)
    for x, y in (("a", "b"), ("b", "a")):
        e = e.join(r.select(pl.col("player").alias(f"player_{x}"),
                            pl.col("partner").alias(f"player_{y}"),
                            pl.col("bin").alias(f"cdf_bin_{x}"), pl.col("r0").alias(f"_r{x}")),
                   on=[f"player_{x}", f"player_{y}", f"cdf_bin_{x}"], how="left",
                   maintain_order="left")
    e = e.with_columns(
        cdf_ea=(pl.col("cdf_na").cast(pl.Float64) * pl.col("_ra")).fill_null(0.0),
        cdf_eb=(pl.col("cdf_nb").cast(pl.Float64) * pl.col("_rb")).fill_null(0.0)
    ).drop("_ra", "_rb")
    return e.select(*hands.columns), _follow_pairs(r)


def counts(s: pl.DataFrame, hu: pl.DataFrame | None = None,
           ws: pl.DataFrame | None = None, fs: pl.DataFrame | None = None,
           fp: pl.DataFrame | None = None) -> StreetCounts:
    """The counts of a frame of `spots` rows (and of `hu_spots` and `ws_spots` rows, and of the
    follow spots: `fs`, per spot (player, bin, cont), and `fp`, per spot each partner in
    (hand_id, player, partner, bin, cont); none when None)."""
    if hu is None:
        hu = pl.DataFrame(schema={"hand_id": pl.String, "player": pl.String,
                                  "street": pl.Int8, "aggr": pl.Boolean})
    if ws is None:
        ws = pl.DataFrame(schema={"hand_id": pl.String, "player": pl.String, "street": pl.Int8,
                                  "at": pl.Int32, "until": pl.Int32, "called": pl.Boolean,
                                  "callers": pl.Int32})
    if fs is None:
        fs = pl.DataFrame(schema={"player": pl.String, "bin": pl.Int8, "cont": pl.Boolean})
    if fp is None:
        fp = pl.DataFrame(schema={"hand_id": pl.String, "player": pl.String,
                                  "partner": pl.String, "bin": pl.Int8, "cont": pl.Boolean})
    behind = s.filter("behind").select("hand_id", "player", "street", "aggr")
    keys = ["hand_id", *_KEYS]
    street = (_pair_streets(behind, "cdx_n", "cdx_ka", "cdx_kb")
              .join(_pair_streets(hu.select("hand_id", "player", "street", "aggr"),
                                  "hus_n", "hus_ka", "hus_kb"), on=keys, how="full",
                    coalesce=True)
              .join(_whipsaw_hands(ws.select("hand_id", "player", "street", "at", "until",
                                              "called", "callers")), on=keys, how="full",
                    coalesce=True)
              .with_columns(pl.col(*PAIR_COLUMNS).fill_null(0))
              .select(*keys, *PAIR_COLUMNS))
    follow_hands, follow_pairs, follow = _follow_counts(
        fs.select("player", "bin", "cont"), fp.select("hand_id", "player", "partner", "bin",
                                                      "cont"))
    hands = _beside(street, follow_hands, keys)
    pairs = _beside(street.group_by(_KEYS).agg(pl.col(*PAIR_COLUMNS).sum()), follow_pairs,
                    _KEYS)
    players = s.group_by("player").agg(
        cdx_h=pl.col("behind").sum().cast(pl.Int64),
        cdx_c=(pl.col("behind") & pl.col("aggr")).sum().cast(pl.Int64),
        cdx_rn=(~pl.col("behind")).sum().cast(pl.Int64),
        cdx_rk=(~pl.col("behind") & pl.col("aggr")).sum().cast(pl.Int64))
    heads_up = hu.group_by("player").agg(hus_h=pl.len().cast(pl.Int64),
                                         hus_c=pl.col("aggr").sum().cast(pl.Int64))
    players = players.join(heads_up, on="player", how="full", coalesce=True).with_columns(
        pl.col(*PLAYER_COLUMNS).fill_null(0))
    return StreetCounts(pairs=pairs, players=players.select("player", *PLAYER_COLUMNS),
                        hands=hands, follow=follow)


def empty() -> StreetCounts:
    pair = {**dict.fromkeys(PAIR_COLUMNS, COUNT), **dict.fromkeys(FOLLOW_COUNTS, COUNT),
            **dict.fromkeys(FOLLOW_EXPECTED, pl.Float64)}
    return StreetCounts(
        pairs=pl.DataFrame(schema={"player_a": pl.String, "player_b": pl.String, **pair}),
        players=pl.DataFrame(schema={"player": pl.String,
                                     **dict.fromkeys(PLAYER_COLUMNS, pl.Int64)}),
        hands=pl.DataFrame(schema={"hand_id": pl.String, "player_a": pl.String,
                                   "player_b": pl.String, **pair,
                                   **dict.fromkeys(FOLLOW_BIN, pl.Int8)}),
        follow=pl.DataFrame(schema={"player": pl.String, "bin": pl.Int8, "n": pl.Int64,
                                    "k": pl.Int64}),
        range_base=pl.DataFrame(schema=RANGE_BASE), range_spots=pl.DataFrame(schema=RANGE_SPOTS))


def combine(parts: Iterable[StreetCounts]) -> StreetCounts:
    """The counts of all the parts' hands together (the hands kept when every part kept
    them: a hand is in one part). With the hands kept, the expected follow continues are
    worked out again on the baseline of all the parts' follow spots; without them each part's
    are summed (on its own baseline: a part's spots cannot be judged again without its
    hands). The range spots' base is summed per kind, player and key, and their target spots
    set one after the other in hand order."""
    parts = [empty(), *parts]
    kept = all(p.hands is not None for p in parts)
    ranged = {
        "range_base": _range_base(pl.concat([p.range_base for p in parts
                                             if p.range_base is not None])),
        # (a hand is in one part, its spots in the order of its events there)
        "range_spots": pl.concat([p.range_spots for p in parts if p.range_spots is not None])
        .sort("hand_id", "kind", maintain_order=True)}
    follow = (pl.concat([p.follow for p in parts if p.follow is not None])
              .group_by("player", "bin").agg(pl.col("n", "k").sum()).sort("player", "bin"))
    pairs = pl.concat([p.pairs for p in parts]).group_by(_KEYS).agg(pl.all().sum()).sort(_KEYS)
    players = (pl.concat([p.players for p in parts]).group_by("player").agg(pl.all().sum())
               .sort("player"))
    if not kept:
        return StreetCounts(pairs=pairs, players=players, hands=None, follow=follow, **ranged)
    hands, follow_pairs = _with_expected(
        pl.concat([p.hands for p in parts if p.hands is not None]), follow)
    pairs = _beside(pairs.select(*_KEYS, *PAIR_COLUMNS), follow_pairs, _KEYS)
    return StreetCounts(pairs=pairs, players=players, hands=hands, follow=follow, **ranged)


def street_counts(events: pl.LazyFrame, seats: pl.LazyFrame | None = None) -> StreetCounts:
    """The counts of the hands of `events`; with `seats` (hand_id, seat, player: a run's
    `hand_players`), of those hands only, each seat named by the run's player id. The events
    keep the log's names; a run qualifies them by room (`Hero@pokerstars`, audit/run/identity.py)
    and names nobody at an anonymous table (a seat label is not a person), so the counts must
    name players as the pair tests they join do."""
    # (the events read once, and the grid of player-streets made once, for every kind of spot)
    if seats is None:
        d = read(events)
        p = _preflop(d, "player")
        g, f, r = _grid(d, "player"), _follows(d, "player", p=p), _range_rows(d, "player", p)
        *frames, range_spots, others, range_base = pl.collect_all(
            [_spots(g), _hu_spots(g), _ws_spots(g), f.spots, f.partners, r.spots, r.others,
             r.base])
        range_base, range_spots = _range_counts(range_spots, others, range_base)
        return replace(counts(*frames), range_base=range_base, range_spots=range_spots)
    seats = seats.select("hand_id", "seat", "player")
    street, spots, partners, ranged = _by_seat(
        events.join(seats.select("hand_id").unique(), on="hand_id", how="semi"), seats)
    range_base, range_spots = _range_counts(*_named_range(*ranged, seats))
    return replace(_with_follows(street, *_named_follows(spots, partners, seats)),
                   range_base=range_base, range_spots=range_spots)


def _by_seat(events: pl.LazyFrame, seats: pl.LazyFrame, games: pl.DataFrame | None = None
             ) -> tuple[StreetCounts, pl.DataFrame, pl.DataFrame,
                        tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]]:
    """The street counts of `events` named by `seats` (hands of no seat there are left out),
    and the follow spots' rows by seat (`_Follows`: spots and partners) and the range spots'
    (`R.RangeRows`: spots, others, base), not yet named (the hands' games from `games`,
    hand_id, bb, variant, when given)."""
    d = read(events, "seat", game=games is None)
    p = _preflop(d, "seat", games)
    g, f, r = _grid(d, "seat"), _follows(d, "seat", p=p), _range_rows(d, "seat", p)

    def named(by_seat: pl.LazyFrame, *cols: str) -> pl.LazyFrame:
        return (by_seat.join(seats, on=["hand_id", "seat"], how="left")
                .filter(pl.col("player").is_not_null())
                .select("hand_id", "player", *cols))

    s, hu, ws, spots, partners, range_spots, others, range_base = pl.collect_all([
        named(_spots(g), "street", "behind", "aggr"), named(_hu_spots(g), "street", "aggr"),
        named(_ws_spots(g), "street", "at", "until", "called", "callers"), f.spots,
        f.partners, r.spots, r.others, r.base])
    return counts(s, hu, ws), spots, partners, (range_spots, others, range_base)


def _named_follows(spots: pl.DataFrame, partners: pl.DataFrame, seats: pl.LazyFrame
                   ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The follow spots' rows by seat (`_Follows`) named by the run's `seats` (hand_id, seat,
    player; streamed: only the seats of those rows are kept); a seat of no player (an anonymous
    table's) is left out, as P or as the partner."""
    keys = pl.concat([spots.select("hand_id", "seat"),
                      partners.select("hand_id", seat=pl.col("partner"))]).unique()
    names = (seats.select("hand_id", "seat", "player")
             .join(keys.lazy(), on=["hand_id", "seat"], how="semi")
             .filter(pl.col("player").is_not_null()).collect(engine="streaming"))
    del keys
    spots = spots.join(names, on=["hand_id", "seat"]).select("player", "bin", "cont")
    partners = (partners.join(names, on=["hand_id", "seat"])
                .join(names.select("hand_id", partner="seat", partner_name="player"),
                      on=["hand_id", "partner"])
                .select("hand_id", "player", partner="partner_name", bin="bin", cont="cont"))
    return spots, partners


def _with_follows(street: StreetCounts, spots: pl.DataFrame, partners: pl.DataFrame,
                  judged_only: bool = False) -> StreetCounts:
    """The street counts `street` (of hands whose follow spots are not in them) with the
    follow spots of the same hands (`spots`: player, bin, cont; `partners`: hand_id, player,
    partner, bin, cont), a hand's and pair's row one for both."""
    follow_hands, follow_pairs, follow = _follow_counts(spots, partners, judged_only)
    keys = ["hand_id", *_KEYS]
    assert street.hands is not None
    return StreetCounts(pairs=_beside(street.pairs, follow_pairs, _KEYS),
                        players=street.players, hands=_beside(street.hands, follow_hands, keys),
                        follow=follow, range_base=street.range_base,
                        range_spots=street.range_spots)


def _flop_seats(seats: pl.LazyFrame) -> pl.LazyFrame:
    """The seats (hand_id, seat, player) of the hands three or more players saw the flop of."""
    flop = (seats.filter(pl.col("folded_street").is_null()
                         | (pl.col("folded_street") != "preflop"))
            .group_by("hand_id").len().filter(pl.col("len") >= 3).select("hand_id"))
    return seats.join(flop, on="hand_id", how="semi").select("hand_id", "seat", "player")


def file_counts(files: Iterable[Path], seats: pl.LazyFrame | None = None,
                hands: pl.LazyFrame | None = None) -> StreetCounts:
    """`street_counts` of event files, one file at a time (memory bounded by the largest, and
    the seats). With `seats` (a run's `hand_players`: hand_id, seat, player, folded_street)
    every hand of a file is read (the follow spots end before the flop in most hands), and the
    street spots are named by the seats of the hands where three or more players saw the flop
    only: every street spot needs three (two with chips behind an all-in, or three with
    chips), and they are about a third of the hands (`_grid` leaves the other hands out). The
    follow spots, a few rows a hand, are named once all files are read, by the seats of their
    hands only (all the seats beside the files, parted by file, were three times the flop
    hands' and the stage's peak). With `hands` (a run's: hand_id, big_blind, variant) the
    hands' games are taken from there: the events' game is a struct decoded for every event
    (two thirds of the read: at 5,000,000 hands 126 CPU-s instead of 83-101; 34-44 before the
    follow spots). The seats are read once: a scan of them joined to each file read them again
    per file (55 s instead of 4 s for the 309 files of the real hands)."""
    if seats is None:
        return combine(street_counts(pl.scan_parquet(f)) for f in files)
    # each file joined to its own hands' seats, parted once: joined to all the seats, each file
    # hashed them all again (240 files of 2,000,000 copied hands: 91 of the collusion stage's
    # 118 CPU-s, growing with files times hands)
    files = list(files)
    if not files:
        return empty()
    where = pl.concat([pl.scan_parquet(f).select("hand_id").unique()
                       .with_columns(_file=pl.lit(i, pl.UInt32)) for i, f in enumerate(files)]
                      ).collect(engine="streaming")
    # the button games' hands' games beside their files, in file order (the other hands have
    # no follow spots: `_follows`; at 5,000,000 mixed-game hands 1,300,000 of them)
    games = None if hands is None else where.join(
        hands.filter(pl.col("variant").is_in(BUTTON_GAMES))
        .select("hand_id", bb=pl.col("big_blind").cast(pl.Int64),
                variant=pl.col("variant").cast(pl.Categorical)).collect(engine="streaming"),
        on="hand_id", how="inner", maintain_order="left")
    if games is not None and not games["_file"].is_sorted():
        # (the files' hands read streamed need not come in file order)
        games = games.sort("_file", maintain_order=True)
    game_ends = (None if games is None else
                 games["_file"].search_sorted(pl.Series(range(len(files) + 1), dtype=pl.UInt32)))
    # the flop hands' seats picked a slice of the hands at a time (by a hash of the hand id:
    # whole hands), streamed, and each file's seats a slice of one frame in file order: all the
    # seats counted per hand at once, then partitioned by file (a copy), took 2.0 GB at
    # 5,000,000 hands, the stage's peak beside the pair table
    k = max(1, math.ceil(seats.select(pl.len()).collect().item() / SEAT_ROWS))
    seated = pl.concat([
        _flop_seats(seats if k == 1 else
                    seats.filter(pl.col("hand_id").hash(seed=0) % k == i))
        .join(where.lazy(), on="hand_id").collect(engine="streaming") for i in range(k)])
    del where
    seated = seated.sort("_file", maintain_order=True)
    ends = seated["_file"].search_sorted(pl.Series(range(len(files) + 1), dtype=pl.UInt32))
    seated = seated.drop("_file")
    streets, spots, partners = [], [], []
    # the range spots by seat (`R.RangeRows`: spots, others and base rows, a few a hand), named
    # and counted whenever RANGE_ROWS of them are held and once all files are read
    # (`_named_range`: a scan of the seats each time; by file, 309 scans of the real hands'
    # seats took 55 s)
    held: list[tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]] = []
    ranged: list[StreetCounts] = []

    def name_held() -> None:
        rs, ro, rb = (pl.concat(frames) for frames in zip(*held, strict=True))
        base, named = _range_counts(*_named_range(rs, ro, rb, seats))
        ranged.append(replace(empty(), range_base=base, range_spots=named))
        held.clear()

    for i, f in enumerate(files):
        game = (None if games is None or game_ends is None
                else games.slice(game_ends[i], game_ends[i + 1] - game_ends[i]))
        street, s, p, rows = _by_seat(
            pl.scan_parquet(f), seated.slice(ends[i], ends[i + 1] - ends[i]).lazy(), game)
        streets.append(street)
        spots.append(s)
        partners.append(p)
        # (shrunk: the rows of a join or filter keep their buffers' spare room, at 200,000
        # hands twice what the rows take)
        held.append((rows[0].shrink_to_fit(), rows[1].shrink_to_fit(), rows[2].shrink_to_fit()))
        if sum(frame.height for frames in held for frame in frames) >= RANGE_ROWS:
            name_held()
    del seated, games
    if held:
        name_held()
    street = combine(streets)
    range_counts = combine(ranged)
    # (all the spots there are: the counts per hand of the pairs the test can judge only)
    return replace(
        _with_follows(street, *_named_follows(pl.concat(spots), pl.concat(partners), seats),
                      judged_only=True),
        range_base=range_counts.range_base, range_spots=range_counts.range_spots)


def _judged(r: pl.DataFrame) -> pl.DataFrame:
    """The directions (player, partner) of the pairs the follow test can judge, of a
    `_rate_table` of all the spots: FOLLOW_MIN_SPOTS spots or more in a direction over all their
    hands. The others' counts per hand (kept all through the scoring for the overlap re-check)
    are never read: a part of a pair's hands has no more spots than all of them. At 5,000,000
    hands they were most of those rows (2,444,650 rows, 244 MB, for 235,500 of street counts;
    1,712,150 without them)."""
    n = r.group_by("player", "partner").agg(pl.col("n").sum())
    pair = [pl.min_horizontal("player", "partner").alias("_a"),
            pl.max_horizontal("player", "partner").alias("_b")]
    judged = (n.with_columns(pair).group_by("_a", "_b")
              .agg(ok=(pl.col("n").max() >= FOLLOW_MIN_SPOTS)).filter("ok"))
    return (n.with_columns(pair).join(judged, on=["_a", "_b"], how="semi")
            .select("player", "partner"))
