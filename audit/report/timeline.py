"""A hand's timeline for investigators: every event with the pot and stacks after it, and
the findings inline at the event they point at (`poker-audit replay HAND_ID`)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from audit.errors import AuditInputError
from audit.replay import ReplayResult, Settings, hands_from_table, replay_hand
from audit.replay.hand import UNKNOWN_STACK
from audit.rules.catalog import TABLE_SEQUENCE_RULE_IDS
from audit.rules.profiles import AUTO_PROFILE, house_rules, load_profile
from audit.sql.query import query
from audit.store.dataset import Store


def load_hand(store: Store, hand_id: str) -> Any:
    """The stored events of one hand, as the replay's HandEvents."""
    table = query(store, "SELECT * FROM events WHERE hand_id = $h ORDER BY seq", {"h": hand_id})
    hands = list(hands_from_table(table))
    if not hands:
        raise AuditInputError(
            f"hand {hand_id!r} is not in {store.root}; list hand ids with "
            '"poker-audit query \\"SELECT hand_id FROM hands_started\\""'
        )
    return hands[0]


def house_profile(hand: Any) -> str:
    """The profile an auto run judges a hand (HandEvents) by: its room's house rules, else
    Robert's Rules (audit/run/judges.py)."""
    started = next((d for k, d in zip(hand.kind, hand.detail, strict=True)
                    if k == "hand_started"), None)
    return house_rules(hand.hand_id, started, (hand.game or {}).get("profile"))


def replay_stored_hand(
    store: Store, hand_id: str, profile: str = AUTO_PROFILE
) -> tuple[Any, ReplayResult]:
    """A stored hand (its HandEvents) and its replay under `profile` (with the tournament
    overlay for a tournament hand), traced for `render_timeline`. AUTO_PROFILE judges it by its
    room's house rules, as an audit does (audit/run/judges.py)."""
    hand = load_hand(store, hand_id)
    if profile == AUTO_PROFILE:
        profile = house_profile(hand)
    overlays = ["tournament"] if (hand.game or {}).get("tournament") else []
    settings = Settings(load_profile(profile, overlays))
    return hand, replay_hand(hand, settings, trace=True)


def recorded_across_hands(store: Store, hand_id: str) -> list[dict[str, Any]]:
    """Findings the latest audit run recorded for this hand that no replay of the hand alone
    can give: the checks over a table's consecutive deals (button, missed blinds, kills) and
    the collusion analytics. Empty when the store has no audit run."""
    rows = query(store, "SELECT run_id, rule_id, category, severity, seq, message "
                        "FROM latest_findings WHERE hand_id = $h "
                        "ORDER BY seq NULLS LAST, rule_id, message", {"h": hand_id}).to_pylist()
    return [r for r in rows
            if r["rule_id"] in TABLE_SEQUENCE_RULE_IDS or r["category"] == "collusion"]


def _event_parts(hand: Any, i: int) -> list[str]:
    """The words of an event's line; each label stays with its value (`amount 10475`,
    `seat 4 (name)`), so a wrapped line never separates them."""
    parts = [hand.kind[i]]
    if hand.seat[i] is not None:
        who = f"seat {hand.seat[i]}"
        if hand.player[i]:
            who += f" ({hand.player[i]})"
        parts.append(who)
    if hand.detail[i]:
        parts += str(hand.detail[i]).split()
    if hand.amount[i] is not None:
        parts.append(f"amount {hand.amount[i]}")
    if hand.total[i] is not None:
        parts.append(f"to {hand.total[i]}")
    if hand.cards[i]:
        parts.append(f"[{hand.cards[i]}]")
    return parts


def _stack(value: int) -> str:
    # The replay gives a seat whose stack the log does not state an effectively infinite one.
    return "?" if value >= UNKNOWN_STACK // 2 else str(value)


EVENT_WIDTH = 56  # the event column: longer text wraps onto the next lines, never cut


def _wrap(parts: list[str], width: int = EVENT_WIDTH) -> list[str]:
    """`parts` joined into lines of at most `width` characters, broken only between parts: a
    number or a name is never cut (a part longer than `width` stands whole on its own line)."""
    lines: list[str] = []
    line = ""
    for part in parts:
        if line and len(line) + 1 + len(part) > width:
            lines.append(line)
            line = part
        else:
            line = f"{line} {part}" if line else part
    return [*lines, line]


def _paid_back(hand: Any) -> dict[int, dict[int, int]]:
    """seq -> {seat: chips} each award event pays back (pots won, uncalled bets returned):
    the replay's stacks are what is behind each seat after its bets; the timeline adds what the
    seat was paid from that event on."""
    paid: dict[int, dict[int, int]] = {}
    for i, kind in enumerate(hand.kind):
        seat, amount = hand.seat[i], hand.amount[i]
        if kind == "award" and seat is not None and amount:
            paid.setdefault(hand.seq[i], {})[seat] = amount
    return paid


def _silent_returns(hand: Any, result: ReplayResult) -> dict[int, int]:
    """Uncalled bets the room gave back without logging them (`refunds=implicit` sources, e.g.
    PHH, whose winnings leave them out): seat -> chips. What the pot took in and neither an
    award nor the house's collection paid out went back to the seats whose bets were not
    called (their chips put in less what the replay counts as invested)."""
    started = next((str(d or "") for k, d in zip(hand.kind, hand.detail, strict=True)
                    if k == "hand_started"), "")
    awards = [(s, a or 0, d) for k, s, a, d in
              zip(hand.kind, hand.seat, hand.amount, hand.detail, strict=True) if k == "award"]
    if "refunds=implicit" not in started or any(d == "uncalled" for _, _, d in awards):
        return {}
    last = (result.timeline or ())[-1:] or None
    if last is None:
        return {}
    starts = {s: a for k, s, a in zip(hand.kind, hand.seat, hand.amount, strict=True)
              if k == "seat" and s is not None and a is not None}
    invested = {p["seat"]: p["invested"] for p in result.players}
    left = last[0]["pot"] - sum(a for _, a, _ in awards) - int(result.hand.get("rake") or 0)
    returned: dict[int, int] = {}
    for seat, behind in sorted(last[0]["stacks"].items()):
        if left <= 0 or seat not in starts or seat not in invested:
            continue
        uncalled = starts[seat] - behind - invested[seat]  # put in, less what the pot kept
        if 0 < uncalled <= starts[seat]:
            returned[seat] = min(uncalled, left)
            left -= returned[seat]
    return returned


def render_timeline(hand: Any, result: ReplayResult,
                    across: list[dict[str, Any]] | None = None) -> str:
    """Plain text: header, one line per event (pot, amount to call, stacks), findings inline;
    then `across`, the findings an audit run made over this hand and the table's other hands
    (`recorded_across_hands`)."""
    game = hand.game or {}
    lines = [
        f"hand {hand.hand_id}  table {hand.table_id[0] if hand.table_id else '-'}  "
        f"{game.get('variant')} {game.get('structure')}  blinds "
        f"{game.get('small_blind')}/{game.get('big_blind')}  button seat "
        f"{game.get('button_seat')}",
        "",
        f"{'seq':>4}  {'event':<{EVENT_WIDTH}} {'pot':>8} {'to call':>8}  stacks",
    ]
    trace = {row["seq"]: row for row in (result.timeline or ())}
    by_seq: dict[int | None, list[Any]] = defaultdict(list)
    for f in result.findings:
        by_seq[f.seq].append(f)
    paid_back = _paid_back(hand)
    paid: dict[int, int] = defaultdict(int)  # chips paid to each seat so far
    silent = _silent_returns(hand, result)
    settle_at = next((i for i, k in enumerate(hand.kind) if k == "hand_ended"), len(hand.seq) - 1)
    for i, seq in enumerate(hand.seq):
        for seat, amount in paid_back.get(seq, {}).items():
            paid[seat] += amount
        if i == settle_at:
            for seat, amount in silent.items():
                paid[seat] += amount
        row = trace.get(seq)
        pot = f"{row['pot']:>8}" if row else " " * 8
        to_call = f"{row['to_call']:>8}" if row else " " * 8
        stacks = (" ".join(f"{s}:{_stack(v + paid[s])}" for s, v in sorted(row["stacks"].items()))
                  if row else "")
        text = _wrap(_event_parts(hand, i))
        first = f"{seq:>4}  {text[0]:<{EVENT_WIDTH}} {pot} {to_call}  {stacks}"
        lines.append(first.rstrip())
        lines += [f"      {more}" for more in text[1:]]
        if i == settle_at and silent:  # in the stacks from here on
            lines.append("      returned, not logged by the room (uncalled): " + ", ".join(
                f"seat {s} {a}" for s, a in silent.items()))
        for f in by_seq.pop(seq, []):
            lines.append(f"      !! {f.severity.upper()} {f.rule_id}: {f.message}")
    for f in [f for fs in by_seq.values() for f in fs]:
        lines.append(f"      !! {f.severity.upper()} {f.rule_id}: {f.message}")
    hand_row = result.hand
    lines += [
        "",
        f"pot {hand_row.get('pot')}  rake {hand_row.get('rake')}  winners "
        f"{hand_row.get('winners') or '-'}  findings {len(result.findings)}  judged by "
        f"{hand_row.get('profile') or '-'}",
    ]
    if across:
        lines += ["", f"across hands (audit run {across[0]['run_id']}):"]
        lines += [f"      !! {r['severity'].upper()} {r['rule_id']}: {r['message']}"
                  for r in across]
    return "\n".join(lines) + "\n"


def hand_timeline(store: Store, hand_id: str, profile: str = AUTO_PROFILE) -> str:
    """What `poker-audit replay HAND_ID` prints: the stored hand replayed under `profile`, every
    event with the pot and stacks after it and its findings inline, then what the latest audit
    run recorded over this hand and the table's other hands."""
    hand, result = replay_stored_hand(store, hand_id, profile)
    return render_timeline(hand, result, recorded_across_hands(store, hand_id))
