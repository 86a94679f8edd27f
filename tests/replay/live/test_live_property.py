"""Property tests of the live-table layer (hypothesis): random legal no-limit hold'em hands
rendered into physical events the canonical way (a declaration then one motion, or the exact
chips in one motion) get no live finding and exactly the findings of the same hand logged
online; splitting one raise into several motions without a declaration always gives a
STRING-RAISE finding at that raise."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from audit.importers.text import parse_text
from audit.replay import hand_from_rows, replay_hand
from audit.rules.catalog import LIVE_RULE_IDS
from audit.rules.ids import DQ_INCONSISTENT_LOG, STRING_RAISE

BB = 100
STACK = 1_000_000  # deep enough that nobody is ever all-in
CARDS = ["As Ks", "Qd Qc", "8h 4c", "7c 7s", "Jd Th", "5s 5d"]
BOARDS = ["2d 7d 9h", "Jc", "3s"]


def _denominations(amount: int) -> str | None:
    """Chips for an exact amount in one motion: never a single chip (that would be ruled a
    call when facing a bet), unknown denominations for an odd amount."""
    if amount % 50 == 0 and amount // 50 >= 2:
        return f"{amount // 50}x50"
    return None


def play(draw, n: int) -> tuple[list[tuple[str, int, int, int, int]], list[str]]:
    """A legal hand: logged actions (kind, seat, chips added, round total, the bet to match
    before it) and the text lines, with `@k` where action k goes."""
    lines = [f"seat {s} p{s} {STACK}" for s in range(1, n + 1)]
    lines += ["post 1 small_blind 50", "post 2 big_blind 100"]
    lines += [f"deal {s} hole {CARDS[s - 1]}" for s in range(1, n + 1)]
    actions: list[tuple[str, int, int, int, int]] = []  # kind, seat, added, total, bet before
    folded: set[int] = set()
    for street in range(4):
        if street:
            lines.append(f"deal board {BOARDS[street - 1]}")
            bet = dict.fromkeys(range(1, n + 1), 0)
            cur, last = 0, BB
            order = list(range(1, n + 1))
        else:
            bet = {s: 0 for s in range(1, n + 1)} | {1: 50, 2: BB}
            cur, last = BB, BB
            order = list(range(3, n + 1)) + [1, 2]
        acted: set[int] = set()
        raises = 0
        i = 0
        while True:
            live = [s for s in order if s not in folded]
            if len(live) <= 1:
                break
            s = order[i % len(order)]
            i += 1
            if s in folded:
                continue
            if s in acted and bet[s] == cur:
                if all(x in acted and bet[x] == cur for x in live):
                    break
                continue
            owed = cur - bet[s]
            options = ["call" if owed else "check"]
            options += ["fold"] if owed else []
            options += ["raise"] if raises < 2 else []
            kind = draw(st.sampled_from(options))
            if kind == "fold":
                folded.add(s)
                actions.append(("fold", s, 0, bet[s], cur))
            elif kind in ("check", "call"):
                actions.append((kind, s, owed, cur, cur))
                bet[s] = cur
            else:
                before = cur
                to = cur + draw(st.integers(min_value=last // 50, max_value=20)) * 50
                last, cur = to - cur, to
                actions.append(("bet" if before == 0 else "raise", s, to - bet[s], to, before))
                bet[s] = to
                raises += 1
            acted.add(s)
            lines.append(f"@{len(actions) - 1}")
        if len([s for s in range(1, n + 1) if s not in folded]) <= 1:
            break
    return actions, lines


def render(actions, lines, draw, split: int | None = None) -> list[str]:
    """The hand's text with each logged action after its canonical physical events."""
    out = []
    for line in lines:
        if not line.startswith("@"):
            out.append(line)
            continue
        k = int(line[1:])
        kind, s, added, total, _ = actions[k]
        if k == split:
            cut = draw(st.integers(min_value=1, max_value=added - 1))
            out += [f"chips {s} {cut}", f"chips {s} {added - cut}"]
        else:
            style = draw(st.sampled_from(["declare", "chips", "both", "none"]))
            if style in ("declare", "both"):
                words = {"fold": "fold", "check": "check", "call": "call"}.get(
                    kind, f'"raise to {total}"' if kind == "raise" else f'"bet {total}"')
                out.append(f"declare {s} {words}")
            if style in ("chips", "both") and added:
                d = _denominations(added)
                out.append(f"chips {s} {added}" + (f" {d}" if d else ""))
        word = {"fold": f"fold {s}", "check": f"check {s}"}.get(kind, f"{kind} {s} to {total}")
        out.append(word if kind != "call" else f"call {s} {added}")
    return out


def replay(text_lines: list[str]):
    text = "hand fx:prop holdem no_limit sb=50 bb=100 button=0\n" + "\n".join(text_lines)
    [(rows, _)] = parse_text(text)
    rows[0]["game"]["button_seat"] = max(r.get("seat") or 0 for r in rows)
    return rows, replay_hand(hand_from_rows(rows))


def online(rows):
    kept = [dict(r) for r in rows if r["kind"] not in ("declare", "chips")]
    for seq, r in enumerate(kept):
        r["seq"] = seq
    return replay_hand(hand_from_rows(kept))


def _key(findings):
    return sorted((f.rule_id, f.seat, f.message) for f in findings)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(min_value=3, max_value=6), data=st.data())
def test_canonical_physical_layer_gives_no_live_finding(n, data):
    actions, lines = play(data.draw, n)
    rows, live = replay(render(actions, lines, data.draw))
    assert not {f.rule_id for f in live.findings} & set(LIVE_RULE_IDS)
    assert [f for f in live.findings if f.rule_id == DQ_INCONSISTENT_LOG] == []
    # the physical layer changes nothing else: same findings as the online log (seqs aside)
    assert _key(live.findings) == _key(online(rows).findings)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(min_value=3, max_value=6), data=st.data())
def test_a_raise_split_into_motions_without_a_word_is_always_a_string_raise(n, data):
    actions, lines = play(data.draw, n)
    raises = [k for k, a in enumerate(actions) if a[0] == "raise" and a[4] > a[3] - a[2]]
    assume(raises)  # counted as filtered, not passed: hypothesis fails if few hands raise
    k = data.draw(st.sampled_from(raises))
    _, live = replay(render(actions, lines, data.draw, split=k))
    kind, seat, added, total, cur = actions[k]
    hits = [(f.seat, f.expected) for f in live.findings if f.rule_id == STRING_RAISE]
    assert hits == [(seat, f"call to {cur}")]
