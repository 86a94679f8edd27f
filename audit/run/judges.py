"""Which rule profile judges each hand of an audit run.

One named profile judges every hand (`--profile montana`: "where do this room's rules depart
from the book?"), or, by default (AUTO_PROFILE), each hand is judged by its house rules
(audit/rules/profiles.py `house_rules`): the profile the hand's house declares
(`game.profile`), else its room's: PokerStars hands by schemas/profiles/pokerstars.toml, hands
of a room we have no profile for by Robert's Rules.
Tournament hands add the tournament overlay either way. The hands projection records the label
of the profile that judged each hand.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from audit.replay.fast.table import replay_table_fast
from audit.rules.findings import findings_table
from audit.rules.profiles import (
    AUTO_PROFILE,
    DEFAULT_PROFILE,
    SITE_PROFILES,
    house_rules,
    load_profile,
    room_of,
)
from audit.rules.settings import Settings
from audit.run.identity import ANONYMOUS_FLAG, qualify_players
from audit.sequence.table import table_sequence_findings


@functools.cache
def settings_pair(name: str, overlays: tuple[str, ...]) -> tuple[Settings, Settings]:
    """Settings for a profile's cash hands and for its tournament hands (the tournament overlay
    added); built once per process."""
    cash = load_profile(name, overlays)
    tournament_overlays = overlays if "tournament" in overlays else (*overlays, "tournament")
    return Settings(cash), Settings(load_profile(name, tournament_overlays))


def run_label(name: str, overlays: Sequence[str]) -> str:
    """What the run record says judged the run: the profile's label, or for AUTO_PROFILE every
    profile it may choose, e.g. `auto(montana@1,fulltilt@1,...)`."""
    if name != AUTO_PROFILE:
        return settings_pair(name, tuple(overlays))[0].label
    names = (DEFAULT_PROFILE, *sorted(set(SITE_PROFILES.values())))
    return "auto(" + ",".join(settings_pair(n, tuple(overlays))[0].label for n in names) + ")"


@dataclass(frozen=True, slots=True)
class Judged:
    """A file's hands replayed, each under its profile: the replay's findings and the
    cross-hand (sequence) findings, the projections, and how many hands the compiled path
    proved clean."""

    findings: pa.Table
    hands: pa.Table
    players: pa.Table
    fast_hands: int


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What a file's hands say about who played them and under which rules: per distinct
    kind of hand (`codes` per hand index into the tuples) its room, house rules profile and
    whether its players are anonymous."""

    starts: np.ndarray  # row where each hand starts, the row count last
    hand_ids: pa.Array  # each hand's id
    codes: np.ndarray  # per hand: index into rooms / profiles / anonymous
    rooms: tuple[str | None, ...]
    profiles: tuple[str, ...]
    anonymous: tuple[bool, ...]

    def by_profile(self) -> dict[str, np.ndarray]:
        """The hands (indices in file order) each profile judges, in first-seen order."""
        if not len(self.codes):
            return {DEFAULT_PROFILE: np.zeros(0, np.int64)}
        per_hand = np.array(self.profiles, dtype=object)[self.codes]
        return {p: np.flatnonzero(per_hand == p) for p in dict.fromkeys(self.profiles)
                if (per_hand == p).any()}


def judge(events: pa.Table, name: str, overlays: tuple[str, ...], run_id: str) -> Judged:
    """Replay every hand of `events` (hands contiguous) under the profile `name`, or under each
    hand's house rules when `name` is AUTO_PROFILE; player ids then qualified by room
    (audit/run/identity.py)."""
    facts = hand_facts(events)
    groups = facts.by_profile() if name == AUTO_PROFILE else None
    if groups is None or len(groups) == 1:
        profile = name if groups is None else next(iter(groups))
        return qualified(_judge_one(events, profile, overlays, run_id), facts)
    starts = facts.starts
    parts: list[tuple[np.ndarray, Judged]] = []
    for profile, hands in groups.items():
        rows = np.concatenate([np.arange(starts[h], starts[h + 1]) for h in hands])
        parts.append((hands, _judge_one(events.take(pa.array(rows)), profile, overlays, run_id)))
    ids = facts.hand_ids.to_pylist()
    return qualified(Judged(
        findings=_in_hand_order([(h, j.findings) for h, j in parts], ids),
        hands=_in_hand_order([(h, j.hands) for h, j in parts], ids),
        players=_in_hand_order([(h, j.players) for h, j in parts], ids),
        fast_hands=sum(j.fast_hands for _, j in parts),
    ), facts)


def qualified(judged: Judged, facts: HandFacts) -> Judged:
    """The judged tables with player ids qualified by room (audit/run/identity.py)."""
    findings, hands, players = qualify_players(judged.findings, judged.hands, judged.players,
                                               facts)
    return Judged(findings=findings, hands=hands, players=players,
                  fast_hands=judged.fast_hands)


def _judge_one(events: pa.Table, profile: str, overlays: tuple[str, ...],
               run_id: str) -> Judged:
    cash, tournament = settings_pair(profile, overlays)
    result = replay_table_fast(events, cash, tournament, run_id)
    # cross-hand checks over each table's hands in this file (audit/sequence/table.py)
    sequence = table_sequence_findings(events, cash, tournament)
    findings = result.findings
    if sequence:
        findings = pa.concat_tables([findings, findings_table(sequence, run_id)])
    return Judged(findings=findings, hands=result.hands, players=result.players,
                  fast_hands=result.fast_hands)


def _hand_starts(events: pa.Table) -> np.ndarray:
    ids = events.column("hand_id").combine_chunks()
    n = len(ids)
    if n == 0:
        return np.zeros(1, np.int64)
    differs = pc.fill_null(pc.not_equal(ids.slice(1), ids.slice(0, n - 1)), True)
    change = np.flatnonzero(differs.to_numpy(zero_copy_only=False)) + 1
    return np.concatenate(([0], change, [n])).astype(np.int64)


def hand_facts(events: pa.Table) -> HandFacts:
    """Each hand's room, house rules (`house_rules`: the profile its house declares in
    `game.profile`, else its room's, by the `room=` flag of its hand_started row or its hand
    id's prefix) and whether its players are anonymous (`players=anonymous`). Worked out per
    distinct (prefix, flags, declared profile), not per hand."""
    starts = _hand_starts(events)
    n_hands = len(starts) - 1
    first = pa.array(starts[:-1])
    ids = events.column("hand_id").take(first) if n_hands > 0 else pa.array([], pa.string())
    if n_hands <= 0:
        empty_codes = np.zeros(0, np.int64)
        return HandFacts(starts=starts, hand_ids=ids, codes=empty_codes, rooms=(),
                         profiles=(), anonymous=())
    empty = pa.scalar("", pa.string())
    prefix = pc.if_else(pc.fill_null(pc.match_substring(ids, ":"), False),
                        _before_colon(ids), empty)
    started = pc.fill_null(pc.equal(events.column("kind").take(first), "hand_started"), False)
    detail = (events.column("detail").take(first) if "detail" in events.column_names
              else pa.nulls(n_hands, pa.string()))
    flagged = pc.and_(started, pc.fill_null(pc.match_substring_regex(
        detail, "room=|players=anonymous"), False))
    flags = pc.if_else(flagged, detail, empty)
    declared = _declared_profiles(events, first)
    keys = pc.binary_join_element_wise(prefix, pc.fill_null(flags, ""),
                                       pc.fill_null(declared, ""), "\x00")
    encoded = pc.dictionary_encode(keys).combine_chunks()
    rooms, profiles, anonymous = [], [], []
    for key in encoded.dictionary.to_pylist():
        pre, text, stated = key.split("\x00")
        hand_id = pre + ":" if pre else ""
        rooms.append(room_of(hand_id, text or None))
        profiles.append(house_rules(hand_id, text or None, stated or None))
        anonymous.append(ANONYMOUS_FLAG in text.split(";"))
    return HandFacts(starts=starts, hand_ids=ids,
                     codes=encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64),
                     rooms=tuple(rooms), profiles=tuple(profiles), anonymous=tuple(anonymous))


def _declared_profiles(events: pa.Table, first: pa.Array) -> pa.Array:
    """`game.profile` on each hand's first row (null where none is declared)."""
    if "game" not in events.column_names:
        return pa.nulls(len(first), pa.string())
    game = events.column("game")
    if not any(f.name == "profile" for f in game.type):
        return pa.nulls(len(first), pa.string())
    return pc.struct_field(game, "profile").take(first).cast(pa.string())  # one field, not all


def _before_colon(ids: pa.Array | pa.ChunkedArray) -> pa.Array:
    parts = pc.split_pattern(ids, ":", max_splits=1)
    return pc.list_element(parts, 0)


def _in_hand_order(parts: list[tuple[np.ndarray, pa.Table]], hand_ids: list[str | None]
                   ) -> pa.Table:
    """Rows of several groups' tables back in the file's hand order (rows of one hand keep
    their order). A row's hand is found by its hand_id among its group's hands; a row whose
    hand is not there (none today) goes last."""
    last = len(hand_ids)
    tables = []
    for hands, table in parts:
        index: dict[str | None, int] = {}
        for h in hands.tolist():
            index.setdefault(hand_ids[h], h)
        position = [index.get(h, last) for h in table.column("hand_id").to_pylist()]
        tables.append(table.append_column("_hand", pa.array(position, pa.int64())))
    merged = pa.concat_tables(tables, promote_options="permissive")
    keep = pc.sort_indices(merged, [("_hand", "ascending")])  # stable: keeps row order
    return merged.take(keep).drop_columns(["_hand"])
