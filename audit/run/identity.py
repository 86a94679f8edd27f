"""Who a player is, across rooms: player ids in an audit run's tables are qualified by room.

`Hero` at PokerStars and `Hero` at Winamax are different people, so wherever a run names a
player (findings, the `hands` winners, `hand_players` and so the collusion analytics and the
report) a hand from a known room names him `Hero@pokerstars`. The events keep what the log
gives. Hands of no known room (simulated, hand-written, interchange files) keep their ids.

Some rooms write no player names at all (Bovada/Ignition anonymous tables: `UTG+2 [ME]`,
`Dealer`, `Big Blind`); their importers flag the hand `players=anonymous`. A seat label is not
a person: such a hand's `hand_players` rows carry no player id (nor who bet into them), which
keeps them out of player statistics and collusion pairing; its findings keep the label.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

if TYPE_CHECKING:
    from audit.run.judges import HandFacts

ANONYMOUS_FLAG = "players=anonymous"  # hand_started detail: the log names seats, not players


def qualify_players(findings: pa.Table, hands: pa.Table, players: pa.Table,
                    facts: HandFacts) -> tuple[pa.Table, pa.Table, pa.Table]:
    """The run's tables of one file with every player id qualified by its hand's room, and the
    player ids of anonymous hands' `hand_players` rows removed."""
    if not any(facts.rooms) and not any(facts.anonymous):
        return findings, hands, players  # simulated or interchange hands: ids as they are
    suffixes = pa.array([f"@{room}" if room else "" for room in facts.rooms], pa.string())
    anonymous = np.array(facts.anonymous, dtype=bool)

    def codes(table: pa.Table) -> np.ndarray:
        index = pc.index_in(table.column("hand_id"), value_set=facts.hand_ids)
        found = pc.fill_null(index, 0).to_numpy(zero_copy_only=False).astype(np.int64)
        return facts.codes[found] if len(found) else np.zeros(0, np.int64)

    def with_room(table: pa.Table, name: str, row_codes: np.ndarray) -> pa.Table:
        ids = table.column(name)
        joined = pc.binary_join_element_wise(ids, suffixes.take(pa.array(row_codes)), "")
        return table.set_column(table.column_names.index(name), table.field(name),
                                joined.cast(table.field(name).type))

    def without_anonymous(table: pa.Table, name: str, row_codes: np.ndarray) -> pa.Table:
        hidden = pa.array(anonymous[row_codes]) if len(row_codes) else pa.array([], pa.bool_())
        kept = pc.if_else(hidden, pa.scalar(None, table.field(name).type), table.column(name))
        return table.set_column(table.column_names.index(name), table.field(name), kept)

    if findings.num_rows:
        c = codes(findings)
        findings = with_room(with_room(findings, "player", c), "counterparty", c)
    if players.num_rows:
        c = codes(players)
        for name in ("player", "faced_bet_from"):
            players = without_anonymous(with_room(players, name, c), name, c)
    if hands.num_rows and "winners" in hands.column_names:
        hands = _winners_with_room(hands, codes(hands), facts.rooms)
    return findings, hands, players


def _winners_with_room(hands: pa.Table, row_codes: np.ndarray,
                       rooms: tuple[str | None, ...]) -> pa.Table:
    """`seat:player,...` with each player qualified by the hand's room."""
    winners = hands.column("winners").combine_chunks()
    out = winners
    for code, room in enumerate(rooms):
        if not room:
            continue
        mask = pa.array(row_codes == code)
        # a room is letters, digits, '-' and '_' (room_of): safe in a RE2 rewrite
        renamed = pc.replace_substring_regex(winners, r"(^|,)(\d+:[^,]*)", rf"\1\2@{room}")
        out = pc.if_else(mask, renamed, out)
    i = hands.column_names.index("winners")
    return hands.set_column(i, hands.field(i), out)
