"""The replay projections' columns as the collusion tests build them by hand (hand_players,
hands: schemas/hand_players.json, schemas/hands.json)."""

from collections.abc import Iterable

import numpy as np
import polars as pl

from audit.collusion import features as F
from audit.collusion.leads import combine, partners_of, score_pairs, totals_of

HP = {"hand_id": pl.String, "seat": pl.Int8, "player": pl.String, "position": pl.String,
       "invested": pl.Int64, "won": pl.Int64, "net": pl.Int64, "vpip": pl.Boolean,
       "pfr": pl.Boolean, "aggressive_actions": pl.Int32, "calls": pl.Int32,
       "folded_street": pl.String, "all_in_street": pl.String, "showed": pl.Boolean,
       "hole_cards": pl.String, "hand_class": pl.String, "faced_bet_from": pl.String}
HANDS = {"hand_id": pl.String, "ts": pl.Datetime("us", "UTC"), "table_id": pl.String,
          "players": pl.Int8, "pot": pl.Int64, "showdown": pl.Boolean, "big_blind": pl.Int64,
          "variant": pl.String, "structure": pl.String}


def events(hand: str, actions: list[tuple[str, str | None, str | None]]) -> pl.DataFrame:
    """A hand's events: (kind, player, detail), `("board", None, None)` for a board deal."""
    rows = [{"hand_id": hand, "seq": i, "kind": "deal" if kind == "board" else kind,
             "player": player, "detail": "board" if kind == "board" else detail}
            for i, (kind, player, detail) in enumerate(actions)]
    return pl.DataFrame(rows, schema={"hand_id": pl.String, "seq": pl.Int32, "kind": pl.String,
                                      "player": pl.String, "detail": pl.String})


_FLOW = ("flow", "flow_sq", "flow_w", "flow_dw", "flow_w2", "flow_chips")  # the float columns


def seated_pairs(columns: list[str], *, seed: int, team: tuple[str, str],
                 team_rate: float | None, spots: int, counts: tuple[str, str, str],
                 zero: Iterable[str] = (), tables: int = 30, seats: int = 6) -> pl.DataFrame:
    """A pair table (`columns`, all 0 but these) of `tables` tables of `seats` players
    (`t07s2`: table 7, seat 2) who never move, 6,000 hands each pair: in `spots` spots of
    the kind `counts` names (spots, A's acts, B's acts) each player acts at his own rate,
    0.2 to 0.6; the `team` at `team_rate` against each other (None: no team); `zero`: more
    count columns, all 0."""
    rng = np.random.default_rng(seed)
    own = {f"t{t:02d}s{i}": float(rng.uniform(0.2, 0.6)) for t in range(tables)
           for i in range(seats)}
    n, ka, kb = counts
    rows = []
    for t in range(tables):
        for i in range(seats):
            for j in range(i + 1, seats):
                a, b = f"t{t:02d}s{i}", f"t{t:02d}s{j}"
                ra, rb = (team_rate, team_rate) if team_rate is not None and (a, b) == team \
                    else (own[a], own[b])
                rows.append({"player_a": a, "player_b": b} | dict.fromkeys(columns, 0.0)
                            | dict.fromkeys(zero, 0)
                            | {"hands": 6000, n: spots, ka: int(rng.binomial(spots, ra)),
                               kb: int(rng.binomial(spots, rb))})
    return pl.DataFrame(rows).with_columns(
        pl.col("hands").cast(pl.UInt32),
        *[pl.col(c).cast(pl.Int64) for c in columns if c != "hands" and c not in _FLOW])


def counted_pair_table(pairs: int, players: int, seed: int = 3) -> pl.DataFrame:
    """A pair table of `pairs` pairs among `players` players, with the columns of
    features.pair_table and counts as they go (folds no more than the bets faced, and so on)."""
    from audit.collusion import aggregate as A
    from audit.collusion.synthetic import generate

    hands, hp, _ = generate(seed=7, players=12, days=1)
    columns = A.aggregate(A.chunks(hp.lazy(), hands.lazy())).table.schema
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, players, 3 * pairs), rng.integers(0, players, 3 * pairs)
    made_pairs = pl.DataFrame({"player_a": [f"p{x:05d}" for x in np.minimum(a, b)],
                               "player_b": [f"p{x:05d}" for x in np.maximum(a, b) + 1]})
    made_pairs = made_pairs.unique(maintain_order=True).head(pairs)
    n = made_pairs.height
    hands_together = rng.integers(20, 2_000, n)
    made = {}
    for c, dtype in columns.items():
        if c in ("player_a", "player_b"):
            continue
        if dtype.is_float():
            made[c] = pl.Series(c, rng.normal(0, 50, n))
        else:  # a count of some of the pair's hands
            made[c] = pl.Series(c, rng.binomial(hands_together, 0.2), dtype=dtype)
    for x in ("a", "b"):  # folds among the bets faced, stratum by stratum, at one rate
        faced = [rng.binomial(hands_together, 0.1) for _ in range(3)]
        folds = [rng.binomial(f, 0.6) for f in faced]
        for s, col in ((0, ""), (1, "1"), (2, "2")):
            made[f"f{x}{col}_n"] = pl.Series(faced[s] + (faced[1] + faced[2] if s == 0 else 0),
                                             dtype=columns[f"f{x}{col}_n"])
            made[f"f{x}{col}_k"] = pl.Series(folds[s] + (folds[1] + folds[2] if s == 0 else 0),
                                             dtype=columns[f"f{x}{col}_k"])
    # bets in the heads-up pots, at one rate: not more bets than pots (a table where they
    # were had most pairs far off the heads-up fit, leads.HEADS_UP)
    made["soft_ka"], made["soft_kb"] = (
        pl.Series(c, rng.binomial(made["hu_n"].to_numpy(), 0.4), dtype=columns[c])
        for c in ("soft_ka", "soft_kb"))
    # strong-hand folds among the strong hands that faced the other's bets, at one rate (more
    # folds than chances had most pairs far off the strong-fold fit, leads.DIRECTED)
    made["sfa_k"], made["sfb_k"] = (
        pl.Series(c, rng.binomial(made[n].to_numpy(), 0.3), dtype=columns[c])
        for c, n in (("sfa_k", "sfa_n"), ("sfb_k", "sfb_n")))
    # double raises after the flop among the double raises in multiway hands, at one rate
    # (likewise, leads.WHIPSAW_RAISES)
    made["ws_post"] = pl.Series("ws_post", rng.binomial(made["ws_both"].to_numpy(), 0.3),
                                dtype=columns["ws_post"])
    made["hands"] = pl.Series("hands", hands_together, dtype=columns["hands"])
    # entries in each preflop order at one rate, independently: no more entries than hands,
    # no more joint entries than either's (an order with more had a negative cell and no log
    # odds ratio of co-entry, order_fit.orders)
    first = rng.binomial(hands_together, 0.5)
    counts: dict[str, np.ndarray] = {}
    for tag, n_order in (("1", first), ("2", hands_together - first)):
        va = rng.binomial(n_order, 0.3)
        both = rng.binomial(va, 0.3)
        counts |= {f"n{tag}": n_order, f"va{tag}": va, f"both{tag}": both,
                   f"vb{tag}": both + rng.binomial(n_order - va, 0.3)}
    for c, x in (("ce1_n", counts["n1"]), ("ce1_va", counts["va1"]), ("ce1_vb", counts["vb1"]),
                 ("ce1_both", counts["both1"]), ("va", counts["va1"] + counts["va2"]),
                 ("vb", counts["vb1"] + counts["vb2"]),
                 ("vboth", counts["both1"] + counts["both2"])):
        made[c] = pl.Series(c, x, dtype=columns[c])
    return made_pairs.with_columns(**made).select(list(columns))


def table_leads(table: pl.DataFrame) -> list[tuple[str, str, str]]:
    """The leads (q <= 0.05) of a pair table scored alone (no players' rates, no seating, no
    explaining away): each one's pair and top test."""
    rates = pl.DataFrame({"player": pl.Series([], dtype=pl.String)})
    rates = rates.with_columns([pl.lit(0).alias(c) for c in F.RATE_COLUMNS])
    tested = table.with_columns(seat_k=pl.lit(0), seat_e=pl.lit(0.0))
    totals = totals_of(table)
    scored = combine(score_pairs(tested, totals, rates, partners=partners_of(table, totals)))
    return scored.filter(pl.col("q_value") <= 0.05).select(
        "player_a", "player_b", "top").rows()


def co_entries(rng: np.random.Generator, hands: int, odds: tuple[float, float],
               first: float = 0.5, rate: float = 0.3) -> dict[str, int]:
    """A pair's entries over `hands` hands (the pair table's `va`, `vb`, `vboth` and the same in
    the hands A acted first, `ce1_*`): A acted first in a share `first` of them; each player
    enters at `rate`, both together at `odds[0]` times the odds of independent entry in the
    hands A acted first and `odds[1]` in those B acted first."""
    out = dict.fromkeys(("va", "vb", "vboth", "ce1_n", "ce1_va", "ce1_vb", "ce1_both"), 0)
    n1 = int(round(hands * first))
    for n, o, tag in ((n1, odds[0], True), (hands - n1, odds[1], False)):
        va, vb = (int(x) for x in rng.binomial(n, rate, 2))
        a, b, c = o - 1, -(o * (va + vb) + n - va - vb), o * va * vb
        both = c / -b if abs(a) < 1e-9 else (-b - np.sqrt(b * b - 4 * a * c)) / (2 * a)
        both = int(np.clip(round(both + rng.normal(0, np.sqrt(max(both, 0)) / 2)), 0,
                           min(va, vb)))
        for key, x in (("va", va), ("vb", vb), ("vboth", both)):
            out[key] += x
        if tag:
            out |= {"ce1_n": n, "ce1_va": va, "ce1_vb": vb, "ce1_both": both}
    return out
