"""The spots a check-down team's continue range is learned from (issue 25, PATTERN-CHECKDOWN-ALLIN),
read off the frame `streets.read` makes of a hand's events: the rows the range model
(audit/collusion/ranges.py) reads, counted beside the street counts (streets.StreetCounts's
`range_base` and `range_spots`).

Two kinds of spots, each with the player's hand strength as a key:

- *follow* (before the flop): every action (call, raise, bet, fold) of a player P facing a bet
  or raise of another player X (the last before P's action) in a button game. Its key is the
  169-class of P's two hole cards (`class_169`); P *continues* (y) unless he folds. A *target*
  spot when X's raise was all-in or X started the hand short (fewer than SHORT_STACK_BB big
  blinds): the follow spots of streets.py.
- *behind* (after the flop): a player's first action on a board street (flop 1, turn 2, river
  3) when nobody bet or raised on that street before him (checked to). Its key is his made hand
  over his hole cards and the board dealt so far (`made_hand_keys`); y: he did not bet or raise
  (a check; a fold bets nothing either). A *target* spot when a third player went all-in on an
  earlier street and is still in.

Target spots are kept one row each, with the players there beside P: `present` (follow: those
dealt in other than P and X; behind: those with chips on the street other than P) and `at`
(follow: those of them not folded before P acts; behind: `present`). All the other spots are
a player's own baseline, counted per player and key (n spots, k of them y). Only two-card
holdings are keyed (hold'em): a hand of unknown or more hole cards (Omaha's made hand is two
hole cards and three of the board, not the best of all of them) has no such spots.

Here the rows are by `who` (a log's player or a seat) and per hand: streets.py names them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

ACTIONS = ("check", "bet", "call", "raise", "fold")
AGGRESSIVE = ("bet", "raise")
FOLLOW_ACTIONS = ("call", "raise", "bet", "fold")
RANKS = "23456789TJQKA"
SUITS = "cdhs"
KEY = pl.Int16
KIND = pl.Enum(["follow", "behind"])  # (one byte a row while held by seat: a string is 16)
# the made-hand keys (`made_hand_keys`): the hand classes' floors, above the high cards (0-12)
QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, PAIR = 90, 80, 70, 60, 50, 40, 20


@dataclass(frozen=True, slots=True)
class RangeRows:
    """The range spots of a frame, by `who` (the column naming the players): `spots`, one row per
    target spot (hand_id, kind, seq: P's action, `who`, key, y); `others`, per target spot each
    player there beside P (hand_id, kind, seq, other, at: whether he is in `at` as well as in
    `present`); `base`, the other spots per hand, player and key (hand_id, kind, `who`, key, n,
    k)."""

    spots: pl.LazyFrame
    others: pl.LazyFrame
    base: pl.LazyFrame


def _rank(card: pl.Expr) -> pl.Expr:
    return card.str.slice(0, 1).replace_strict(
        {r: i for i, r in enumerate(RANKS)}, default=None, return_dtype=pl.Int16)


def _suit(card: pl.Expr) -> pl.Expr:
    return card.str.slice(1, 1).replace_strict(
        {s: i for i, s in enumerate(SUITS)}, default=None, return_dtype=pl.Int16)


def _card_table() -> pl.DataFrame:
    """Each card ("As") with its rank and suit, and its bit in a set of cards (`bit`: 1 <<
    rank * 4 + suit, 52 bits)."""
    return pl.DataFrame(
        {"card": [r + u for r in RANKS for u in SUITS],
         "rank": [i for i in range(len(RANKS)) for _ in SUITS],
         "suit": [j for _ in RANKS for j in range(len(SUITS))],
         "bit": [1 << (i * len(SUITS) + j) for i in range(len(RANKS))
                 for j in range(len(SUITS))]},
        schema={"card": pl.String, "rank": pl.Int16, "suit": pl.Int16, "bit": pl.UInt64})


def _holding_table() -> pl.DataFrame:
    """Each two-card holding as a log writes it ("As Kd", either order) with its 169-class
    (`class_169`) and its higher card's rank: the holdings looked up (joined) rather than their
    cards parsed per row, four times as fast."""
    c = _card_table()
    one = c.rename({"card": "c1", "rank": "r1", "suit": "s1", "bit": "b1"})
    two = c.rename({"card": "c2", "rank": "r2", "suit": "s2", "bit": "b2"})
    both = one.join(two, how="cross").filter(pl.col("c1") != pl.col("c2"))
    cards = pl.col("c1") + " " + pl.col("c2")
    return both.select(cards=cards, key=class_169(cards), high=pl.max_horizontal("r1", "r2"),
                       bits=pl.col("b1") | pl.col("b2"))


def class_169(cards: pl.Expr) -> pl.Expr:
    """The 169-class of two hole cards ("As Kd"): hi * 100 + lo * 2 + suited (ranks 2..A as
    0..12); null when either card is unknown or the holding is not two cards."""
    first, second = cards.str.slice(0, 2), cards.str.slice(3, 2)
    r1, r2 = _rank(first), _rank(second)
    suited = (_suit(first) == _suit(second)).cast(pl.Int16)
    key = pl.max_horizontal(r1, r2) * 100 + pl.min_horizontal(r1, r2) * 2 + suited
    two = (cards.str.len_chars() == 5) & r1.is_not_null() & r2.is_not_null()
    return pl.when(two).then(key).otherwise(None).cast(KEY)


def made_hand_keys(cards: np.ndarray, hole_high: np.ndarray) -> np.ndarray:
    """Per holding the made-hand key: QUADS, FULL_HOUSE, FLUSH, STRAIGHT (the wheel A-2-3-4-5
    too), TRIPS; TWO_PAIR + the higher pair's rank // 4; PAIR + the pair's rank; else the
    highest hole card's rank (`hole_high`). `cards`: each holding's cards (hole and board) as a
    set of `_card_table` bits (uint64). A straight flush is a flush, and a pair or trips of the
    board's alone count as his (the prototype's keys, behind.py). Worked out rank by rank over
    all holdings at once (the bits of a rank are four in a row, one per suit)."""
    cards = cards.astype(np.uint64)
    four = np.uint64(len(SUITS))
    counts = [np.bitwise_count((cards >> (np.uint64(r) * four)) & np.uint64(0b1111))
              for r in range(len(RANKS))]
    quads = np.zeros(len(cards), dtype=bool)
    trips = np.zeros(len(cards), dtype=np.int8)
    pairs = np.zeros(len(cards), dtype=np.int8)
    top_pair = np.full(len(cards), -1, dtype=np.int16)
    for r, c in enumerate(counts):
        quads |= c >= 4
        trips += c == 3
        pairs += c == 2
        top_pair = np.where(c == 2, np.int16(r), top_pair)
    suited = [sum(1 << (r * len(SUITS) + u) for r in range(len(RANKS))) for u in range(4)]
    flush = np.zeros(len(cards), dtype=bool)
    for mask in suited:
        flush |= np.bitwise_count(cards & np.uint64(mask)) >= 5
    # the ranks present with the ace below the deuce too: a straight is five in a row of them
    present = [counts[-1] > 0, *(c > 0 for c in counts)]
    straight = np.zeros(len(cards), dtype=bool)
    for top in range(4, len(present)):
        straight |= np.logical_and.reduce(present[top - 4:top + 1])
    keys: np.ndarray = np.select(
        [quads, (trips >= 1) & ((pairs >= 1) | (trips > 1)), flush, straight, trips >= 1,
         pairs >= 2, pairs == 1],
        [QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR + top_pair // 4, PAIR + top_pair],
        default=hole_high)
    return keys.astype(np.int16)


_HOLDINGS = _holding_table()
_CARDS = _card_table()


def _hole_cards(d: pl.DataFrame, who: str) -> pl.DataFrame:
    """Each player's two hole cards where known (hand_id, `who`, cards, key: their 169-class,
    high: the higher one's rank, bits: the set of them, `_card_table`)."""
    return (d.filter((pl.col("kind") == "deal") & (pl.col("detail") == "hole")
                     & pl.col(who).is_not_null())
            .select("hand_id", who, "cards")
            .join(_HOLDINGS, on="cards"))


@dataclass(frozen=True, slots=True)
class Preflop:
    """The betting before the flop of the button games' hands of a frame `streets.read` made,
    by `who` (worked out once for the follow spots of streets.py and the range's): `game` (hand_id,
    bb, variant), `pre` (the frame's rows before the flop), `dealt` (hand_id, `who`, stack: the
    players dealt in), `acts` (hand_id, seq, `who`, kind: the actions) and `faced` (hand_id,
    seq, `who`, kind, x: each action on another player X's bet or raise, the last before it;
    target: X's raise was all-in or X started the hand short)."""

    game: pl.DataFrame
    pre: pl.DataFrame
    dealt: pl.DataFrame
    acts: pl.DataFrame
    faced: pl.DataFrame


def preflop(d: pl.DataFrame, who: str, game: pl.DataFrame, short_stack_bb: int) -> Preflop:
    """The `Preflop` of a frame `streets.read` made (`game`: the button games' hands, hand_id,
    bb, variant; a stack short below `short_stack_bb` big blinds)."""
    pre = d.filter(pl.col("street") == 0).join(game.select("hand_id"), on="hand_id",
                                                 how="semi")
    dealt = (pre.filter((pl.col("kind") == "seat") & pl.col(who).is_not_null())
             .select("hand_id", who, stack="amount"))
    aggressive = pl.col("kind").is_in(AGGRESSIVE)
    # each action with the bet or raise before it in the hand (whose, and was it all-in): the
    # frame is in hand order, so filled forward over all hands at once and kept where the
    # raise was in the same hand (per hand, `over`, took four times as long)
    acts = pre.filter(pl.col("kind").is_in(FOLLOW_ACTIONS) & pl.col(who).is_not_null()).select(
        "hand_id", "seq", who, "kind", allin=(pl.col("detail") == "all_in").fill_null(False),
        hand=(pl.col("hand_id") != pl.col("hand_id").shift(1)).fill_null(True).cum_sum())
    acts = acts.with_columns(
        pl.when(aggressive).then(pl.col(c)).shift(1).forward_fill().alias(name)
        for name, c in (("x", who), ("x_hand", "hand"), ("x_allin", "allin")))
    short = (dealt.join(game, on="hand_id")
             .select("hand_id", x=pl.col(who),
                     short=pl.col("stack") < short_stack_bb * pl.col("bb")))
    faced = (acts.filter((pl.col("x_hand") == pl.col("hand")) & (pl.col("x") != pl.col(who)))
             .join(short, on=["hand_id", "x"], how="left")
             .select("hand_id", "seq", who, "kind", "x",
                     target=pl.col("x_allin") | pl.col("short").fill_null(False)))
    return Preflop(game=game, pre=pre, dealt=dealt, acts=acts.select("hand_id", "seq", who, "kind"),
                   faced=faced)


def follow_rows(p: Preflop, who: str) -> RangeRows:
    """The follow spots of the betting before the flop `p`."""
    faced = (p.faced.lazy().join(_hole_cards(p.pre, who).lazy(), on=["hand_id", who])
             .select("hand_id", "seq", who, "x", "key", "target", y=pl.col("kind") != "fold"))
    spots = faced.filter("target")
    folds = (p.acts.lazy().filter(pl.col("kind") == "fold").group_by("hand_id", who)
             .agg(fold_at=pl.col("seq").min()))
    others = (spots.join(p.dealt.lazy().select("hand_id", other=pl.col(who)), on="hand_id")
              .filter((pl.col("other") != pl.col(who)) & (pl.col("other") != pl.col("x")))
              .join(folds.rename({who: "other"}), on=["hand_id", "other"], how="left")
              .select("hand_id", _kind("follow"), "seq", "other",
                      at=pl.col("fold_at").is_null() | (pl.col("fold_at") > pl.col("seq"))))
    return RangeRows(
        spots=spots.select("hand_id", _kind("follow"), "seq", who, "key", "y"),
        others=others,
        base=_per_hand(faced.filter(~pl.col("target")), "follow", who))


def _kind(kind: str) -> pl.Expr:
    return pl.lit(kind, KIND).alias("kind")


def _per_hand(rows: pl.LazyFrame, kind: str, who: str) -> pl.LazyFrame:
    """Base spots (hand_id, `who`, key, y) counted per hand, player and key (n and k a few a
    hand: UInt16, a row held until named is a third smaller)."""
    return (rows.group_by("hand_id", who, "key")
            .agg(n=pl.len().cast(pl.UInt16), k=pl.col("y").sum().cast(pl.UInt16))
            .select("hand_id", _kind(kind), who, "key", "n", "k"))


def behind_rows(d: pl.DataFrame, who: str) -> RangeRows:
    """The checked-to spots of a frame `streets.read` made (its board deals with their cards)."""
    kind = pl.col("kind")
    # the hands that saw a flop (the frame in hand order: each row given its hand's last street)
    last_row = (pl.col("hand_id") != pl.col("hand_id").shift(-1)).fill_null(True)
    flop = d.filter(pl.when(last_row).then(pl.col("street")).backward_fill() >= 1)
    acts = flop.filter(kind.is_in(ACTIONS) & pl.col(who).is_not_null())
    aggressive = kind.is_in(AGGRESSIVE).cast(pl.Int32)
    # the bets and raises before each action on its street: counted over the whole frame and
    # less those before the street's first action (per street, `over`, was slower)
    total = aggressive.cum_sum()
    street_start = ((pl.col("hand_id") != pl.col("hand_id").shift(1))
                    | (pl.col("street") != pl.col("street").shift(1))).fill_null(True)
    checked_to = (acts.filter(pl.col("street") >= 1)
                  .with_columns(before=total - aggressive
                                - pl.when(street_start).then(total - aggressive).forward_fill())
                  .filter(pl.struct("hand_id", who, "street").is_first_distinct()
                          & (pl.col("before") == 0))
                  .select("hand_id", "seq", who, pl.col("street").cast(pl.Int8),
                          y=~kind.is_in(AGGRESSIVE)))
    # the player-streets of the hands someone went all-in in (a few of them: the others' spots
    # are all base), each player in or not and with chips or not at the street's start
    all_in = acts.filter(pl.col("detail") == "all_in").select("hand_id").unique()
    players = (acts.join(all_in, on="hand_id", how="semi").group_by("hand_id", who)
               .agg(fold_st=pl.col("street").filter(kind == "fold").min(),
                    allin_st=pl.col("street").filter(pl.col("detail") == "all_in").min()))
    grid = (players.join(flop.group_by("hand_id").agg(last=pl.col("street").max()),
                         on="hand_id")
            .with_columns(street=pl.int_ranges(1, pl.col("last") + 1, dtype=pl.Int8))
            .explode("street")
            .with_columns(
                inn=pl.col("fold_st").is_null() | (pl.col("fold_st") >= pl.col("street")),
                allin_before=(pl.col("allin_st") < pl.col("street")).fill_null(False))
            .select("hand_id", who, "street", chips=pl.col("inn") & ~pl.col("allin_before"),
                    behind=pl.col("inn") & pl.col("allin_before")))
    behind = grid.group_by("hand_id", "street").agg(target=pl.col("behind").any())
    spots = (checked_to.join(_hole_cards(flop, who), on=["hand_id", who])
             .join(_boards(flop), on=["hand_id", "street"], how="left")
             .join(behind, on=["hand_id", "street"], how="left")
             .select("hand_id", "seq", who, "street", "y",
                     key=_made_hand_keys(pl.col("bits") | pl.col("board"), pl.col("high")),
                     target=pl.col("target").fill_null(False))
             .filter(pl.col("key").is_not_null()))
    target = spots.filter("target")
    others = (target.join(grid.filter("chips").select("hand_id", "street", other=pl.col(who)),
                          on=["hand_id", "street"])
              .filter(pl.col("other") != pl.col(who))
              .select("hand_id", _kind("behind"), "seq", "other",
                      at=pl.lit(True)))
    return RangeRows(
        spots=target.lazy().select("hand_id", _kind("behind"), "seq", who, "key",
                                   "y"),
        others=others.lazy(),
        base=_per_hand(spots.lazy().filter(~pl.col("target")), "behind", who))


def _boards(flop: pl.DataFrame) -> pl.DataFrame:
    """Per hand and board street the set of board cards dealt so far (hand_id, street, board:
    `_card_table` bits; null when one of them is unknown)."""
    deals = (flop.filter((pl.col("kind") == "deal") & (pl.col("detail") == "board"))
             .select("hand_id", pl.col("street").cast(pl.Int8),
                     card=pl.col("cards").str.split(" "))
             .with_row_index("deal").explode("card")
             .join(_CARDS.select("card", "bit"), on="card", how="left")
             .group_by("deal", "hand_id", "street")
             .agg(bits=pl.col("bit").sum(), unknown=pl.col("bit").null_count() > 0)
             .sort("deal"))
    # (a few board deals a hand, one per street: the cards of those before are added per hand)
    return deals.select(
        "hand_id", "street",
        board=pl.when(pl.col("unknown").cum_sum().over("hand_id") == 0)
        .then(pl.col("bits").cum_sum().over("hand_id")))


def _made_hand_keys(cards: pl.Expr, high: pl.Expr) -> pl.Expr:
    """`made_hand_keys` of sets of cards (`_card_table` bits; null: unknown) with the highest
    hole card's rank `high`."""
    def keys(s: pl.Series) -> pl.Series:
        frame = s.struct.unnest()
        bits, top = frame["cards"], frame["high"]
        made = made_hand_keys(bits.fill_null(0).to_numpy(), top.fill_null(0).to_numpy())
        return pl.Series(made, dtype=KEY).scatter(np.flatnonzero(bits.is_null().to_numpy()),
                                                  None)

    return pl.struct(cards.alias("cards"), high.alias("high")).map_batches(
        keys, return_dtype=KEY)
