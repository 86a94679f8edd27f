"""Pair features from the replay projections (`hands`, `hand_players`), computed with polars.

Nothing here loops over hands or events in Python: the projections are self-joined into one row
per pair of players per hand (`pair_hands`), each feature is a boolean or a number on that row,
and `pair_table` aggregates them per pair together with each player's totals over all his
pairs, from which the null models take leave-pair-out baselines (audit/collusion/leads.py).

Feature columns of a pair-hand row (A = player_a < B = player_b, alphabetically):

- `hu`: a heads-up pot — exactly A and B did not fold preflop. `aggr_a`, `aggr_b`: bet or
  raised in the hand; `post_a`, `post_b`: bet or raised beyond one preflop raise (soft play:
  the pair's heads-up postflop aggression against each other).
- `vpip_a`, `vpip_b`: voluntarily entered the pot (team play and hole-card sharing: the weaker
  of two shared hands folds, so partners seldom contest the same pot). `first_a`: A acted
  before B preflop (`preflop_order`; co-entry is judged in each order apart, order_fit).
- `fa`/`fb`: A faced a bet or raise last made by B (resp. B by A); `fold_a`/`fold_b`: and
  folded (unusual folds to each other). `entry_a`/`entry_b`: how the player came into the hand
  (ENTRY: 0 not voluntarily, 1 calling, 2 raising preflop), the range he folds from.
  `sfa`/`sfb`: the folder's hole cards are known and strong (TT+, AK, AQ: showdown and fold
  behaviour suggesting knowledge of the partner's cards).
- `d`: big blinds flowing from A to B in the hand (A's loss times B's share of the winnings, minus
  the reverse; chip dumping). `ifold_a`/`ifold_b`: A folded to B's bet (resp. B to A's) after
  putting chips into the pot of his own will (he entered it preflop, or played past the
  preflop round): the folds that could give up a heavy investment. `hfold_a`/`hfold_b`: and
  had put HEAVY_BB big blinds or more in (folds after heavy investment).
- `ws`: whipsaw — both A and B bet or raised, at least three bets/raises between them, and a
  third player called a bet or raise last made by A or B. `multi`: three or more players dealt.
- `cd_opp`: a third player went all-in before the river while A and B both stayed in with chips
  (neither all-in, neither folded on or before the street of the first all-in), whether or not
  they then went to showdown; `cd`: and both went to showdown with chips, neither having bet or
  raised in the hand, or, the all-in being preflop, after the preflop round (checked it down).
  The chance is counted before its outcome: an honest bet into the side pot usually ends the
  hand with a fold, so counting only the hands that reached showdown would count mostly the
  checked-down ones and make checking down look like the common honest course.
- `cs_a`: both starting hands are known (button games; `preflop_strength`, Chen points), B's
  is the stronger and B entered the pot voluntarily; `cs_ea`: and A entered too (hole-card
  sharing: the weaker of the two hands folds to let the stronger play alone). `cs_b`/`cs_eb`
  the same the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import polars as pl

HEAVY_BB = 10  # a fold after investing this many big blinds gives up a heavy investment
EARLY_STREETS = ("preflop", "flop", "turn")
_STREET_ORDER = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}
_NOT_FOLDED = 9  # the street order of a player who never folded
STRONG_MADE = ("three of a kind", "straight", "flush", "full house", "four of a kind",
               "straight flush")
_BROADWAY = "TJQKA"

HAND_PLAYER_COLUMNS = (
    "hand_id", "seat", "player", "position", "invested", "won", "net", "vpip", "pfr",
    "aggressive_actions", "calls",
    "folded_street", "all_in_street", "showed", "hole_cards", "hand_class", "faced_bet_from",
)
HAND_COLUMNS = ("hand_id", "ts", "table_id", "players", "pot", "showdown", "big_blind",
                "variant", "structure", "profile")
# the hands projection's `profile` names the rules that judged the hand; a tournament hand is
# judged with the tournament overlay (`montana@1+tournament@1`): the hand's format, as the
# hand_started event's game.tournament says it, without reading the events again
TOURNAMENT_OVERLAY = "tournament@"
# games in which entering the pot means different things (how many enter, with what), for
# baselines taken game by game: hold'em or Omaha, big-bet or fixed limit
GAME_GROUPS = ("holdem big-bet", "holdem fixed limit", "omaha big-bet", "omaha fixed limit")
# preflop order by position (audit/replay/projections.positions: UTG, UTG+1, ..., LJ, HJ, CO,
# BTN, SB, BB; heads-up the button acts first): who acts before whom, for co-entry taken in
# the order the two acted (an aggressive player's raise cuts the entries of whoever acts after
# him, not before)
_ACT_RANK = {"LJ": 20, "HJ": 21, "CO": 22, "BTN": 23, "SB": 24, "BB": 25}
_ACT_UNKNOWN = 99


def preflop_order(position: pl.Expr, seat: pl.Expr) -> pl.Expr:
    """A key that sorts the players of a hand in their preflop order (`_ACT_RANK`), by seat
    where the position is unknown (then the split of a pair's hands is by seat: no order, but
    still two strata each judged against the players' own in the same stratum)."""
    utg = position.str.strip_prefix("UTG").str.strip_prefix("+")
    rank = (pl.when(position == "UTG").then(0)
            .when(position.str.starts_with("UTG+")).then(utg.cast(pl.Int16, strict=False))
            .otherwise(position.replace_strict(_ACT_RANK, default=None,
                                               return_dtype=pl.Int16)))
    return (rank.cast(pl.Int16).fill_null(_ACT_UNKNOWN) * 128
            + seat.cast(pl.Int16).fill_null(0)).cast(pl.Int16)


def _strong_hole(col: pl.Expr) -> pl.Expr:
    """Two known hole cards (`As Kd`) forming TT+, AK or AQ."""
    r1 = col.str.slice(0, 1)
    r2 = col.str.slice(3, 1)
    known = (col.str.len_chars() == 5) & ~col.str.contains(r"\?", literal=False)
    pair = (r1 == r2) & r1.is_in(list(_BROADWAY))
    ace_big = ((r1 == "A") & r2.is_in(["K", "Q"])) | ((r2 == "A") & r1.is_in(["K", "Q"]))
    return (known & (pair | ace_big)).fill_null(False)


_RANK_VALUE = {r: v for v, r in enumerate("23456789TJQKA", start=2)}
BUTTON_GAMES = ("holdem", "omaha", "omaha_hilo", "omaha5", "omaha5_hilo", "omaha6",
                "omaha6_hilo")
_MAX_HOLE = 6  # six-card Omaha


def _rank(col: pl.Expr, i: int) -> pl.Expr:
    return col.str.slice(3 * i, 1).replace_strict(_RANK_VALUE, default=None,
                                                  return_dtype=pl.Int16)


def _chen_points(r1: int, r2: int, suited: bool) -> int:
    """Twice Bill Chen's points of two hole cards of ranks `r1`, `r2` (2..14, ace 14): the
    high card's points (A 10, K 8, Q 7, J 6, else half the rank), doubled for a pair (5 at
    least), 2 for suited, minus 1/2/4/5 for a gap of 1/2/3/4+, plus 1 for a connector or
    one-gapper below a queen."""
    hi, lo = max(r1, r2), min(r1, r2)
    points = {14: 20, 13: 16, 12: 14, 11: 12}.get(hi, hi)
    if hi == lo:
        return max(2 * points, 10)
    gap = hi - lo - 1
    penalty = {0: 0, 1: 2, 2: 4, 3: 8}.get(gap, 10)
    bonus = 2 if gap <= 1 and hi < 12 else 0
    return points + (4 if suited else 0) - penalty + bonus


# every two ranks and suitedness, looked up once per pair of hole cards: the formula written as
# polars expressions repeats each card's rank dozens of times per pair, and over the 15 pairs
# of six-card Omaha the plan grew so large that every query using it took seconds to plan
# (key: rank1 * 32 + rank2 * 2 + suited)
_CHEN = {r1 * 32 + r2 * 2 + suited: _chen_points(r1, r2, bool(suited))
         for r1 in _RANK_VALUE.values() for r2 in _RANK_VALUE.values() for suited in (0, 1)}


def preflop_strength(hole: pl.Expr, variant: pl.Expr) -> pl.Expr:
    """A starting hand's strength in a button game: twice the Chen points of its best two hole
    cards (all of them known: `As Kd`, `As Kd 7h 2c`, ...); null when a card is unknown or in
    stud and draw games, where starting hands are not two or more concealed cards of one deal."""
    length = hole.str.len_chars()
    known = (variant.is_in(list(BUTTON_GAMES)) & ~hole.str.contains("?", literal=True)
             & length.is_in([3 * n - 1 for n in range(2, _MAX_HOLE + 1)]))
    ranks = [_rank(hole, i) for i in range(_MAX_HOLE)]
    suits = [hole.str.slice(3 * i + 1, 1) for i in range(_MAX_HOLE)]
    # a pair with a missing card (a hand shorter than six) has a null key and drops out of the
    # max; a hand with an unknown card is null as a whole (`known`)
    pairs = [ranks[i] * 32 + ranks[j] * 2 + (suits[i] == suits[j]).cast(pl.Int16)
             for i in range(_MAX_HOLE) for j in range(i + 1, _MAX_HOLE)]
    best = pl.max_horizontal([k.replace_strict(_CHEN, default=None, return_dtype=pl.Int16)
                              for k in pairs])
    return pl.when(known).then(best).otherwise(None).cast(pl.Int16)


def hand_columns(hands: pl.LazyFrame) -> pl.LazyFrame:
    """The HAND_COLUMNS of a hands projection (`profile` null where a frame has none: hands of
    unknown format count as cash hands)."""
    if "profile" not in hands.collect_schema().names():
        hands = hands.with_columns(profile=pl.lit(None, dtype=pl.String))
    return hands.select(HAND_COLUMNS)


def player_hands(hand_players: pl.LazyFrame, hands: pl.LazyFrame) -> pl.LazyFrame:
    """One row per named player per hand with the per-player flags the pair features need."""
    hp = hand_players.select(HAND_PLAYER_COLUMNS).filter(pl.col("player").is_not_null())
    hp = hp.with_columns(
        contest=pl.col("folded_street").fill_null("") != "preflop",
        folded=pl.col("folded_street").is_not_null(),
        survivor=pl.col("folded_street").is_null() & pl.col("all_in_street").is_null(),
        allin_early=pl.col("all_in_street").is_in(list(EARLY_STREETS)).fill_null(False),
        allin_preflop=(pl.col("all_in_street") == "preflop").fill_null(False),
        allin_order=pl.col("all_in_street").replace_strict(_STREET_ORDER, default=None,
                                                           return_dtype=pl.Int8),
        # bets and raises beyond one preflop raise: 0 proves the player neither bet nor raised
        # after the preflop round (a second preflop raise keeps it above 0: never a false 0)
        beyond_preflop=pl.col("aggressive_actions") - pl.col("pfr").cast(pl.Int32),
        called=pl.col("calls") > 0,
        act=preflop_order(pl.col("position"), pl.col("seat")),
        strong_hole=_strong_hole(pl.col("hole_cards")),
        strong_made=pl.col("hand_class").is_in(list(STRONG_MADE)).fill_null(False),
        gain=pl.col("net").clip(lower_bound=0),
        # blinds lost without entering the pot are not a transfer anyone chose: positional
        # blind steals would otherwise flow one way between neighbours
        loss=pl.when(pl.col("vpip") | (pl.col("folded_street").fill_null("") != "preflop"))
        .then((-pl.col("net")).clip(lower_bound=0)).otherwise(0),
    )
    per_hand = hp.group_by("hand_id").agg(
        n_contest=pl.col("contest").sum(),
        n_allin_preflop=pl.col("allin_preflop").sum(),
        first_allin=pl.col("allin_order").filter(pl.col("allin_early")).min(),
        total_gain=pl.col("gain").sum(),
    )
    # callers whose last faced bet/raise came from this player (whipsaw: the trapped third)
    callers = (
        hp.filter(pl.col("called") & pl.col("faced_bet_from").is_not_null())
        .group_by("hand_id", "faced_bet_from")
        .agg(caught=pl.len().cast(pl.Int32))
        .rename({"faced_bet_from": "player"})
    )
    h = hand_columns(hands).with_columns(
        # a tournament hand dealt to two players: whatever one loses the other wins, and the
        # match ends when one has every chip (a heads-up freezeout), so the chips that flow
        # between the two are the format's, not a transfer either chose
        hu_tournament=pl.col("profile").str.contains(TOURNAMENT_OVERLAY, literal=True)
        .fill_null(False) & (pl.col("players") == 2)).drop("profile")
    rows = (hp.join(per_hand, on="hand_id", how="left")
            .join(callers, on=["hand_id", "player"], how="left")
            .join(h, on="hand_id", how="left"))
    # the strength of each distinct starting hand once: far fewer than the rows, and the
    # lookup is the dearest flag to compute
    starts = rows.select("hole_cards", "variant").unique().with_columns(
        strength=preflop_strength(pl.col("hole_cards"), pl.col("variant")))
    return (
        rows.join(starts, on=["hole_cards", "variant"], how="left", maintain_order="left")
        .with_columns(pl.col("caught").fill_null(0),
                      game=(2 * (pl.col("variant") != "holdem").cast(pl.Int8)
                            + (pl.col("structure") == "fixed_limit").fill_null(False)
                            .cast(pl.Int8)),
                      heavy=pl.col("invested") >= HEAVY_BB * pl.col("big_blind").fill_null(0)
                      .clip(lower_bound=1),
                      # still in with chips after the first all-in (before the river) of the
                      # hand, which is then a third player's: a check-down chance for any two
                      # such players
                      behind_allin=pl.col("first_allin").is_not_null()
                      & pl.col("all_in_street").is_null()
                      & (pl.col("folded_street").replace_strict(
                          _STREET_ORDER, default=_NOT_FOLDED, return_dtype=pl.Int8)
                         > pl.col("first_allin")))
        # and went to showdown with chips without betting or raising (after the preflop round,
        # the all-in being preflop): his part of a check-down, counted per hand for his own
        # baseline (a pair checked it down when both players did)
        .with_columns(cd_self=pl.col("behind_allin") & pl.col("survivor")
                      & pl.col("showdown").fill_null(False)
                      & ((pl.col("aggressive_actions") == 0)
                         | ((pl.col("n_allin_preflop") >= 1) & (pl.col("beyond_preflop") == 0))))
    )


_SIDE = ("player", "net", "gain", "loss", "aggressive_actions", "called", "folded", "survivor",
         "heavy", "vpip", "pfr", "beyond_preflop",
         "contest", "allin_early", "faced_bet_from", "strong_hole", "strong_made", "caught",
         "strength", "behind_allin", "cd_self", "act")


def _big_blind() -> pl.Expr:
    bb = pl.col("big_blind").cast(pl.Float64)
    return pl.when(bb > 0).then(bb).otherwise(1.0)


_COMMON = ("hand_id", "ts", "table_id", "players", "pot", "showdown", "big_blind", "game",
           "n_contest", "n_allin_preflop", "total_gain", "hu_tournament")
# the columns of `player_hands` that `pair_hands` reads
PAIR_INPUT = (*_COMMON, *(c for c in _SIDE if c not in _COMMON))


def pair_hands(ph: pl.LazyFrame, only: pl.DataFrame | None = None,
               carry: tuple[str, ...] = ()) -> pl.LazyFrame:
    """One row per pair of named players per hand (A < B), with the feature columns; with
    `only` (columns player_a, player_b), the rows of those pairs alone (the two sides are cut
    to their players before the self-join, which is most of the cost); `carry`: per-hand
    columns of `ph` kept as they are."""
    left = ph.select(*_COMMON, *carry, *[pl.col(c).alias(f"{c}_a") for c in _SIDE])
    right = ph.select("hand_id", *[pl.col(c).alias(f"{c}_b") for c in _SIDE])
    if only is not None:
        left = left.filter(pl.col("player_a").is_in(only["player_a"].unique().implode()))
        right = right.filter(pl.col("player_b").is_in(only["player_b"].unique().implode()))
    pairs = left.join(right, on="hand_id").filter(pl.col("player_a") < pl.col("player_b"))
    if only is not None:
        pairs = pairs.join(only.lazy().select("player_a", "player_b").unique(),
                           on=["player_a", "player_b"], how="semi")
    a, b = pl.col, pl.col
    fa = (a("faced_bet_from_a") == b("player_b")).fill_null(False)
    fb = (b("faced_bet_from_b") == a("player_a")).fill_null(False)
    # flows in big blinds: players move between stakes, and a chip at 200/400 is not a chip at
    # 5/10 (hands without a big blind count their chips as they are)
    gain = pl.col("total_gain").cast(pl.Float64) * _big_blind()
    # no flow counted in a heads-up tournament hand (`player_hands`: the format's)
    flow = pl.when((gain > 0) & ~pl.col("hu_tournament")).then(
        (a("loss_a") * b("gain_b") - b("loss_b") * a("gain_a")).cast(pl.Float64) / gain
    ).otherwise(0.0)
    third_caught = (a("caught_a") + b("caught_b")
                    - (fb & b("called_b")).cast(pl.Int32) - (fa & a("called_a")).cast(pl.Int32))
    aa, ab = a("aggressive_actions_a"), b("aggressive_actions_b")
    # A folded to B's bet after putting chips in of his own will (B to A's): `ifold_a` below
    ifold_a = fa & a("folded_a") & (a("vpip_a").fill_null(False) | a("contest_a"))
    ifold_b = fb & b("folded_b") & (b("vpip_b").fill_null(False) | b("contest_b"))
    cd_opp = a("behind_allin_a") & b("behind_allin_b")
    checked_down = a("survivor_a") & b("survivor_b") & pl.col("showdown").fill_null(False)
    # both starting hands known and unequal, the stronger one entered voluntarily
    known = a("strength_a").is_not_null() & b("strength_b").is_not_null()
    weaker_a = known & (b("strength_b") > a("strength_a")) & b("vpip_b")
    weaker_b = known & (a("strength_a") > b("strength_b")) & a("vpip_a")
    return pairs.select(
        "hand_id", "ts", "table_id", "pot", "player_a", "player_b", *carry,
        hu=a("contest_a") & b("contest_b") & (pl.col("n_contest") == 2),
        aggr_a=aa > 0,
        aggr_b=ab > 0,
        post_a=a("beyond_preflop_a") > 0,
        post_b=b("beyond_preflop_b") > 0,
        vpip_a=a("vpip_a"),
        vpip_b=b("vpip_b"),
        # A acted before B preflop (`preflop_order`)
        first_a=a("act_a") < b("act_b"),
        entry_a=_entry(a("vpip_a"), a("pfr_a")),
        entry_b=_entry(b("vpip_b"), b("pfr_b")),
        fa=fa,
        fb=fb,
        fold_a=fa & a("folded_a"),
        fold_b=fb & b("folded_b"),
        sfa=fa & a("strong_hole_a"),
        sfb=fb & b("strong_hole_b"),
        sfold_a=fa & a("strong_hole_a") & a("folded_a"),
        sfold_b=fb & b("strong_hole_b") & b("folded_b"),
        d=flow,
        # the pot in big blinds: the scale of what could flow in the hand (skill null model)
        w=(pl.col("pot").cast(pl.Float64) / _big_blind()).fill_null(0.0),
        d_chips=pl.when((pl.col("total_gain") > 0) & ~pl.col("hu_tournament")).then(
            (a("loss_a") * b("gain_b") - b("loss_b") * a("gain_a")).cast(pl.Float64)
            / pl.col("total_gain").cast(pl.Float64)).otherwise(0.0),
        # A fold preflop without entering the pot gives up a blind at most, never a heavy
        # investment, and how many of A's folds to B are such folds is a matter of seating: a
        # bettor who acts before A preflop draws them from his raises, one who acts after A
        # raises over A's entries. Among all folds, a loose player's share of heavy folds to
        # the aggressive player seated after him read as chip dumping (104 where 66.9 were
        # expected, on the rulebook population of issue 25, share 0.4, seed 2); among these
        # folds, 370 of the 644, it is about his share against the others (93.9, p 0.17).
        ifold_a=ifold_a,
        ifold_b=ifold_b,
        # (a heavy fold moves chips too: not in a heads-up tournament hand, as the flow)
        hfold_a=ifold_a & a("heavy_a") & ~pl.col("hu_tournament"),
        hfold_b=ifold_b & b("heavy_b") & ~pl.col("hu_tournament"),
        multi=pl.col("players") >= 3,
        ws=(aa > 0) & (ab > 0) & (aa + ab >= 3) & (third_caught >= 1),
        cd_opp=cd_opp,
        # after a preflop all-in the remaining streets are flop to river: a preflop raise is
        # not betting into the side pot; after a later all-in, any bet or raise counts
        cd=cd_opp & checked_down & (((aa == 0) & (ab == 0))
                                    | ((pl.col("n_allin_preflop") >= 1)
                                       & (a("beyond_preflop_a") == 0)
                                       & (b("beyond_preflop_b") == 0))),
        cd_a=cd_opp & a("cd_self_a"),
        cd_b=cd_opp & b("cd_self_b"),
        cd_strong=a("strong_made_a") | b("strong_made_b"),
        cs_a=weaker_a,
        cs_ea=weaker_a & a("vpip_a"),
        cs_b=weaker_b,
        cs_eb=weaker_b & b("vpip_b"),
        cs_game=pl.col("game"),
    )


# How a player came into a hand, the range he holds when he faces a bet: not voluntarily (a
# blind, or a fold to a preflop raise), calling (limping or calling a raise), raising preflop.
# A player who enters with junk folds more to everyone's bets, and an aggressive preflop raiser
# draws folds mostly from players who never entered: the folds to a partner are judged stratum
# by stratum (audit/collusion/leads.py, fold_to_partner).
ENTRY = ("not entered", "entered calling", "raised preflop")


def _entry(vpip: pl.Expr, pfr: pl.Expr) -> pl.Expr:
    return (vpip.fill_null(False).cast(pl.Int8)
            + (vpip.fill_null(False) & pfr.fill_null(False)).cast(pl.Int8))


# The float sums of the pair table (the flows in big blinds) and of `player_totals` (big blinds
# won, pots in big blinds, the company's expected entries) are summed in fixed point, in units
# of 1/FIXED: a float sum depends on the order of its terms, and the order of the rows of a join
# and of a group in polars differs from run to run, so the same store gave chip-dump and
# card-sharing p-values differing in their last digits run to run (`poker-audit collusion
# --format json` never the same twice). Integers add up the same in any order. 2**24: a term is
# exact to 6e-8 of a big blind; a sum in 64 bits holds up to 5e11 big blinds.
FIXED = 1 << 24
FIXED_TOTALS = ("gain", "pot_nz", *(f"sg{g}_e" for g in range(len(GAME_GROUPS))))


def _fixed(value: pl.Expr) -> pl.Expr:
    return (value.cast(pl.Float64) * FIXED).round().cast(pl.Int64)


def _unfixed(totals: pl.LazyFrame) -> pl.LazyFrame:
    """The fixed-point sums of `totals` back in their units."""
    return totals.with_columns(pl.col(c).cast(pl.Float64) / FIXED for c in FIXED_TOTALS)


def _wide(value: pl.Expr) -> pl.Expr:
    """`_fixed`, 128 bits wide: the products of two and their sums stay exact (a pair's flows
    squared, in units of 1/FIXED², pass 2**63 at 181 big blinds; the plain sums, in 64 bits,
    at 5e11)."""
    return _fixed(value).cast(pl.Int128)


def _exact_sum(fixed: pl.Expr, squared: bool = False) -> pl.Expr:
    """The sum of fixed-point terms (of products of two when `squared`) as a float."""
    return fixed.sum().cast(pl.Float64) / (FIXED * FIXED if squared else FIXED)


def pair_table(pairs: pl.LazyFrame, by: tuple[str, ...] = ()) -> pl.LazyFrame:
    """Per pair (and per value of the columns `by`): hands together and the counts every null
    model needs."""
    c = pl.col
    return pairs.group_by(*by, "player_a", "player_b").agg(
        hands=pl.len(),
        hu_n=c("hu").sum(),
        soft_ka=(c("hu") & c("post_a")).sum(),
        soft_kb=(c("hu") & c("post_b")).sum(),
        va=c("vpip_a").sum(), vb=c("vpip_b").sum(), vboth=(c("vpip_a") & c("vpip_b")).sum(),
        # the same in the hands A acted first (B first: the rest; order_fit.orders)
        ce1_n=c("first_a").sum(), ce1_va=(c("first_a") & c("vpip_a")).sum(),
        ce1_vb=(c("first_a") & c("vpip_b")).sum(),
        ce1_both=(c("first_a") & c("vpip_a") & c("vpip_b")).sum(),
        fa_n=c("fa").sum(), fa_k=c("fold_a").sum(),
        fb_n=c("fb").sum(), fb_k=c("fold_b").sum(),
        # the same per entry stratum of the folder (ENTRY; stratum 0 is the rest of fa_n, ...)
        **{f"f{x}{s}_{y}": (c(col) & (c(f"entry_{x}") == s)).sum()
           for s in range(1, len(ENTRY)) for x in ("a", "b")
           for y, col in (("n", f"f{x}"), ("k", f"fold_{x}"))},
        sfa_n=c("sfa").sum(), sfa_k=c("sfold_a").sum(),
        sfb_n=c("sfb").sum(), sfb_k=c("sfold_b").sum(),
        # the flows summed in fixed point (`_exact_sum`): the same sums whatever the order
        flow=_exact_sum(_fixed(c("d"))),
        flow_sq=_exact_sum(_wide(c("d")) * _wide(c("d")), squared=True),
        flow_nz=(c("d") != 0).sum(),
        flow_w=_exact_sum(_fixed(pl.when(c("d") != 0).then(c("w")).otherwise(0.0))),
        flow_dw=_exact_sum(_wide(c("d")) * _wide(c("w")), squared=True),
        flow_w2=_exact_sum(_wide(pl.when(c("d") != 0).then(c("w")).otherwise(0.0)).pow(2),
                           squared=True),
        flow_chips=_exact_sum(_fixed(c("d_chips"))),
        ifa_k=c("ifold_a").sum(), ifb_k=c("ifold_b").sum(),
        hfa_k=c("hfold_a").sum(), hfb_k=c("hfold_b").sum(),
        ws_n=c("multi").sum(), ws_k=c("ws").sum(),
        ws_ga=(c("multi") & c("aggr_a")).sum(), ws_gb=(c("multi") & c("aggr_b")).sum(),
        ws_both=(c("multi") & c("aggr_a") & c("aggr_b")).sum(),
        # of those, the hands both bet or raised after the preflop round: a whipsaw's raises
        # around the third player (leads.py, whipsaw); honest double raises in a multiway
        # pot are mostly a preflop raise and a re-raise, after which one bets and the other
        # calls or folds
        ws_post=(c("multi") & c("post_a") & c("post_b")).sum(),
        cd_n=c("cd_opp").sum(), cd_k=c("cd").sum(), cd_ka=c("cd_a").sum(),
        cd_kb=c("cd_b").sum(),
        **{f"cs{g}_{x}": (c(col) & (c("cs_game") == g)).sum()
           for g in range(len(GAME_GROUPS))
           for x, col in (("na", "cs_a"), ("ka", "cs_ea"), ("nb", "cs_b"), ("kb", "cs_eb"))},
    )


def player_totals(table: pl.LazyFrame) -> pl.LazyFrame:
    """Per player, totals over all his pairs (for leave-pair-out baselines).

    For flows, `gain` is the player's big blinds won from partners (negative: lost) and `flow_nz`
    the pair-hands in which chips flowed, so that his mean gain per such hand against everyone
    else is (gain - this pair's) / (flow_nz - this pair's). `fd_n`/`fd_k` count the partners'
    folds the player drew with his own bets (`ind_n`/`ind_k`: those after the folder put chips
    in of his own will / and after a heavy investment). `wk_n`/`wk_k`:
    hands in which a partner entered with a stronger starting hand than his / and he entered
    too; `sg_n`/`sg_k`: hands he entered with the stronger hand / and the partner entered too.
    (`wk{g}_n` and so on, per game group g of GAME_GROUPS.)
    """
    totals = _side_sums(table)
    weak = _weak_rates(totals)
    return _unfixed(totals.join(weak, on="player", how="left").join(
        _company(table, weak), on="player", how="left"))


# Pairs of a pair table at a time for `player_totals_in_slices`: each slice's two sides (a
# row per player of each pair, some 50 columns) are about 80 MB at this size
PAIRS_PER_SLICE = 100_000


def player_totals_in_slices(table: pl.DataFrame, keep: pl.Series | None = None,
                            pairs: int | None = None) -> pl.DataFrame:
    """`player_totals` of the pair table `table` (of its rows where the boolean series `keep`
    is true, when given), `pairs` pairs at a time (PAIRS_PER_SLICE when None), without a
    filtered copy of the table.

    Each player's sums are summed over the slices' sums: exactly those of `player_totals` (the
    float terms are summed in fixed point, `_fixed`).
    Over the whole table at once, both sides of every pair (a row per player of each pair) and
    the table joined with the players' rates were held together: at 5,000,000 hands (1.9M
    pairs, a 526 MB table) the totals took the collusion stage to 2.35 GB, and the totals
    without the partners (leads.partners_of) a filtered copy of the table on top."""
    pairs = pairs or PAIRS_PER_SLICE

    def slices() -> Iterator[pl.LazyFrame]:
        for start in range(0, table.height, pairs):
            part = table.slice(start, pairs)
            if keep is not None:
                part = part.filter(keep.slice(start, pairs))
            yield part.lazy()

    def summed(sums: Callable[[pl.LazyFrame], pl.LazyFrame]) -> pl.DataFrame:
        # a running total, each slice's sums added as they come: the slices' sums kept until
        # the end were a row per player of each slice (as big as the table in slices of a
        # twentieth of it among as many players)
        total = sums(table.clear().lazy()).collect()
        for part in slices():
            total = pl.concat([total, sums(part).collect()]).group_by(
                "player", maintain_order=True).agg(pl.all().sum())
        return total

    totals = summed(_side_sums)
    weak = _weak_rates(totals.lazy()).collect()
    company = summed(lambda part: _company(part, weak.lazy()))
    return _unfixed(totals.join(weak, on="player", how="left").join(company, on="player",
                                                                     how="left").lazy()).collect()


def _side_sums(table: pl.LazyFrame) -> pl.LazyFrame:
    """`player_totals`' sums of the pairs' own columns, per player."""
    c = pl.col
    side_a = table.select(
        player=c("player_a"), hands=c("hands"), hu_n=c("hu_n"), soft_k=c("soft_ka"),
        f_n=c("fa_n"), f_k=c("fa_k"), **_entry_side("a", "b"), sf_n=c("sfa_n"),
        sf_k=c("sfa_k"), gain=_fixed(-c("flow")),
        flow_nz=c("flow_nz"), pot_nz=_fixed(c("flow_w")),
        hf_k=c("hfa_k"), ind_n=c("ifb_k"), ind_k=c("hfb_k"), fd_n=c("fb_n"), fd_k=c("fb_k"),
        ws_n=c("ws_n"), ws_k=c("ws_k"), cd_n=c("cd_n"), cd_k=c("cd_k"),
        **_card_share_side("a", "b"),
    )
    side_b = table.select(
        player=c("player_b"), hands=c("hands"), hu_n=c("hu_n"), soft_k=c("soft_kb"),
        f_n=c("fb_n"), f_k=c("fb_k"), **_entry_side("b", "a"), sf_n=c("sfb_n"),
        sf_k=c("sfb_k"), gain=_fixed(c("flow")),
        flow_nz=c("flow_nz"), pot_nz=_fixed(c("flow_w")),
        hf_k=c("hfb_k"), ind_n=c("ifa_k"), ind_k=c("hfa_k"), fd_n=c("fa_n"), fd_k=c("fa_k"),
        ws_n=c("ws_n"), ws_k=c("ws_k"), cd_n=c("cd_n"), cd_k=c("cd_k"),
        **_card_share_side("b", "a"),
    )
    return pl.concat([side_a, side_b]).group_by("player").agg(pl.all().sum())


def _weak_rates(totals: pl.LazyFrame) -> pl.LazyFrame:
    """Per player (of `_side_sums`), his rate of entering with the weaker hand per game group."""
    return totals.select("player", *[weak_rate(pl.col(f"wk{g}_k"), pl.col(f"wk{g}_n"))
                                     .alias(f"w{g}") for g in range(len(GAME_GROUPS))])


def _company(table: pl.LazyFrame, weak: pl.LazyFrame) -> pl.LazyFrame:
    """Card sharing: how often the others who sat with a player joined his stronger hands, as
    their own entry rates with a weaker hand predict (`sg{g}_e`): being joined often is the
    looseness of the company he keeps (a table of loose players), not a trait of his."""
    c = pl.col
    wa = weak.rename({"player": "player_a", **{f"w{g}": f"w{g}_a"
                                               for g in range(len(GAME_GROUPS))}})
    wb = weak.rename({"player": "player_b", **{f"w{g}": f"w{g}_b"
                                               for g in range(len(GAME_GROUPS))}})
    rows = table.join(wa, on="player_a", how="left").join(wb, on="player_b", how="left")
    return pl.concat([
        rows.select(player=c("player_a"), **{f"sg{g}_e": _fixed(c(f"cs{g}_nb") * c(f"w{g}_b"))
                                             for g in range(len(GAME_GROUPS))}),
        rows.select(player=c("player_b"), **{f"sg{g}_e": _fixed(c(f"cs{g}_na") * c(f"w{g}_a"))
                                             for g in range(len(GAME_GROUPS))}),
    ]).group_by("player").agg(pl.all().sum())


def weak_rate(k: pl.Expr | float, n: pl.Expr | float) -> pl.Expr | float:
    """A player's rate of entering with the weaker of two known hands (a pseudo-count each way:
    a player seldom seen is about even)."""
    return (k + 1) / (n + 2)


# A pair's log odds ratio of entering together (in one preflop order) beyond this is left out
# of the co-entry fit (order_fit): a partner, not a measure of how the player enters with
# anyone. Left out, not clipped: a chip dumper follows his receiver into the pot (log odds ratio
# 1.6), and clipped to 1 with the weight of 6,000 hands together he still set a third of the
# receiver's usual, which made every aggressive stranger at their table, whose raises cut the
# receiver's entries, read as a card sharer (p 8e-13, issue 25).
CO_ENTRY_CLIP = 1.0


def _entry_side(me: str, other: str) -> dict[str, pl.Expr]:
    """A player's folds to bets per entry stratum (`f{s}_n`/`f{s}_k`) and the folds he drew
    from players of that stratum (`fd{s}_n`/`fd{s}_k`), s = 1, 2 of ENTRY."""
    c = pl.col
    out = {}
    for s in range(1, len(ENTRY)):
        out |= {f"f{s}_n": c(f"f{me}{s}_n"), f"f{s}_k": c(f"f{me}{s}_k"),
                f"fd{s}_n": c(f"f{other}{s}_n"), f"fd{s}_k": c(f"f{other}{s}_k")}
    return out


def _card_share_side(me: str, other: str) -> dict[str, pl.Expr]:
    c = pl.col
    out = {}
    for g in range(len(GAME_GROUPS)):
        out |= {f"wk{g}_n": c(f"cs{g}_n{me}"), f"wk{g}_k": c(f"cs{g}_k{me}"),
                f"sg{g}_n": c(f"cs{g}_n{other}"), f"sg{g}_k": c(f"cs{g}_k{other}")}
    return out


RATE_COLUMNS = ("multi_n", "multi_g", "cd_h", "cd_c")  # of `player_rates`, besides the player


def player_rates(ph: pl.LazyFrame) -> pl.LazyFrame:
    """Per player: multiway hands played (`multi_n`) and those he bet or raised in (`multi_g`);
    hands he stayed in behind a third player's all-in (`cd_h`) and those he checked down
    (`cd_c`), counted once per hand (summed over his pairs, a hand with two others behind the
    all-in would count twice)."""
    multi = ph.filter(pl.col("players") >= 3)
    per = ph.group_by("player").agg(cd_h=pl.col("behind_allin").sum(),
                                    cd_c=pl.col("cd_self").sum())
    return (multi.group_by("player").agg(
        multi_n=pl.len(), multi_g=(pl.col("aggressive_actions") > 0).sum())
        .join(per, on="player", how="full", coalesce=True)
        .with_columns(pl.col(*RATE_COLUMNS).fill_null(0)))


def seating(ph: pl.LazyFrame, bucket: str = "1d") -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """Sittings per player and per time bucket, for the seating null model.

    Returns (`cells`: one row per player, table and bucket he played in; `tables`: active tables
    per bucket). Hands without a timestamp fall into one bucket; without a table, one table.
    """
    base = ph.select(
        "player",
        table=pl.col("table_id").fill_null("?"),
        bucket=pl.col("ts").dt.truncate(bucket).cast(pl.Int64).fill_null(-1),
    ).unique()
    tables = base.group_by("bucket").agg(n_tables=pl.col("table").n_unique())
    return base, tables


_NANO = 1_000_000_000


def co_sittings(cells: pl.LazyFrame, tables: pl.LazyFrame,
                candidates: pl.LazyFrame) -> pl.LazyFrame:
    """Per candidate pair: table-buckets shared (`seat_k`) and expected by chance (`seat_e`).

    Chance: in each bucket each of B's sittings lands on any active table with equal
    probability, so E = Σ_bucket s_A · s_B / tables (s = the player's sittings in the bucket).
    """
    per_bucket = cells.group_by("player", "bucket").agg(s=pl.len())
    a = candidates.join(per_bucket.rename({"player": "player_a", "s": "s_a"}), on="player_a")
    ab = a.join(per_bucket.rename({"player": "player_b", "s": "s_b"}),
                on=["player_b", "bucket"]).join(tables, on="bucket")
    # summed in integer nano-units: a float sum in the order the joins happen to produce
    # differs in its last bits from run to run (sorting first does not survive the optimiser)
    expected = ab.group_by("player_a", "player_b").agg(
        seat_e=(pl.col("s_a").cast(pl.Float64) * pl.col("s_b") * _NANO / pl.col("n_tables"))
        .round().cast(pl.Int64).sum() / _NANO)
    ca = candidates.join(cells.rename({"player": "player_a"}), on="player_a")
    shared = ca.join(cells.rename({"player": "player_b"}), on=["player_b", "table", "bucket"])
    observed = shared.group_by("player_a", "player_b").agg(seat_k=pl.len())
    return (candidates.join(expected, on=["player_a", "player_b"], how="left")
            .join(observed, on=["player_a", "player_b"], how="left")
            .with_columns(pl.col("seat_e").fill_null(0.0), pl.col("seat_k").fill_null(0)))
