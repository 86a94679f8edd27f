"""The replay projections' columns as the collusion tests build them by hand (hand_players,
hands: schemas/hand_players.json, schemas/hands.json)."""

import polars as pl

HP = {"hand_id": pl.String, "seat": pl.Int8, "player": pl.String, "invested": pl.Int64,
       "won": pl.Int64, "net": pl.Int64, "vpip": pl.Boolean, "pfr": pl.Boolean,
       "aggressive_actions": pl.Int32, "calls": pl.Int32, "folded_street": pl.String,
       "all_in_street": pl.String, "showed": pl.Boolean, "hole_cards": pl.String,
       "hand_class": pl.String, "faced_bet_from": pl.String}
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
