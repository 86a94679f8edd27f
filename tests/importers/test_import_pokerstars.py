"""PokerStars importer: the real fpdb sample files, hand-written fixtures, bad input, encodings,
fuzzing (hypothesis) and a cross-check with PokerKit's PokerStars parser (a test dependency)."""

from __future__ import annotations

import re
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.importers import IMPORTERS, detect_format
from audit.importers.base import Rejected
from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.ingest.validate import validate_events

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "pokerstars"
SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "data" / "fpdb-sample"
PUT_IN = ("post", "call", "bet", "raise", "complete")
HEADER = re.compile(rb"^(?:\xef\xbb\xbf)?PokerStars ")

# file -> (imported, quarantined): every real hand imports.
EXPECTED = {
    "stars-27-single-draw-allin.txt": (1, 0),
    "stars-27-triple-draw.txt": (1, 0),
    "stars-5card-draw-sidepot.txt": (1, 0),
    "stars-7stud-hilo.txt": (7, 0),
    "stars-7stud.txt": (11, 0),
    "stars-lhe-10max-1-2.txt": (1, 0),
    "stars-mtt-nlhe-knockout.txt": (211, 0),
    "stars-nlhe-6max-0.05-0.10.txt": (78, 0),
    "stars-nlhe-run-it-twice.txt": (1, 0),
    "stars-plo-sidepots.txt": (3, 0),
    "stars-plo8-6max.txt": (15, 0),
    "stars-razz.txt": (9, 0),
}
needs_samples = pytest.mark.skipif(not SAMPLES.exists(), reason="fpdb sample not present")


def _read(path: Path, **kw: Any) -> tuple[list[dict[str, Any]], list[int], list[Rejected]]:
    rows: list[dict[str, Any]] = []
    lines: list[int] = []
    rejected: list[Rejected] = []
    for chunk in PokerStarsImporter(**kw).read(path):
        rows += chunk.table.to_pylist()
        lines += chunk.lines
        rejected += chunk.rejected
        checked = validate_events(chunk.table, chunk.lines, str(path))
        assert checked.rejected == [], checked.rejected[:3]
    return rows, lines, rejected


def _hands(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        out[row["hand_id"]].append(row)
    return out


def _compact(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(e["kind"], e["seat"], e["amount"], e["total"], e["cards"], e["detail"])
            for e in events]


# --- real samples ----------------------------------------------------------------------


@needs_samples
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_file_imports_every_hand(name: str) -> None:
    path = SAMPLES / name
    rows, lines, rejected = _read(path)
    hands = _hands(rows)
    assert (len(hands), len(rejected)) == EXPECTED[name], [r.reason for r in rejected]
    assert len(lines) == len(rows)
    headers = sum(1 for raw in path.read_bytes().split(b"\n") if HEADER.match(raw))
    assert headers == len(hands) + len(rejected)
    for events in hands.values():
        assert [e["seq"] for e in events] == list(range(len(events)))
        assert events[0]["source"].startswith(f"pokerstars:{name}:")


@needs_samples
def test_chips_balance_awards_plus_rake_equal_put_in() -> None:
    implicit = []
    for name in EXPECTED:
        rows, _, _ = _read(SAMPLES / name)
        for hand_id, events in _hands(rows).items():
            put = sum(e["amount"] for e in events if e["kind"] in PUT_IN)
            out = sum(e["amount"] for e in events if e["kind"] in ("award", "rake"))
            if "refunds=implicit" in (events[0]["detail"] or ""):
                implicit.append(hand_id)
                assert put > out
            else:
                assert put == out, hand_id
            total_pot = int(events[-1]["detail"].split(";")[0].removeprefix("total_pot="))
            uncalled = sum(e["amount"] for e in events
                           if e["kind"] == "award" and e["detail"] == "uncalled")
            if hand_id not in implicit:
                assert total_pot == put - uncalled, hand_id
    # 2005 fixed-limit hand: the site returned the uncalled $1 without logging it.
    assert implicit == ["ps:2428142447"]


@needs_samples
def test_nl_cash_hand_exact_events() -> None:
    rows, _, _ = _read(FIXTURES / "nlhe-two-hands.txt")
    first = next(iter(_hands(rows).values()))
    game = first[0]["game"]
    assert first[0]["hand_id"] == "ps:35824118297"
    assert (game["variant"], game["structure"], game["small_blind"], game["big_blind"],
            game["button_seat"], game["seat_count"], game["currency"],
            game["minor_per_unit"]) == ("holdem", "no_limit", 5, 10, 3, 6, "USD", 100)
    assert str(first[0]["ts"]) == "2009-11-25 11:21:05+00:00"  # 6:21:05 ET (EST)
    assert first[0]["table_id"] == "May IV"
    kinds = [e["kind"] for e in first]
    assert kinds[0] == "hand_started" and kinds[-1] == "hand_ended"
    assert kinds.count("rake") == 1


def test_stud_bring_in_complete_and_river_down_cards() -> None:
    rows, _, rejected = _read(FIXTURES / "stud-complete.txt")
    assert rejected == []
    hands = _hands(rows)
    stud = hands["ps:200000000001"]
    game = stud[0]["game"]
    assert (game["variant"], game["small_bet"], game["big_bet"], game["ante"],
            game["bring_in"]) == ("stud", 10, 20, 2, 5)
    assert _compact(stud[7:17]) == [
        ("deal", 1, None, None, "Ah Kd", "down"),
        ("deal", 1, None, None, "2c", "up"),
        ("deal", 2, None, None, "?? ??", "down"),
        ("deal", 2, None, None, "9s", "up"),
        ("deal", 4, None, None, "?? ??", "down"),
        ("deal", 4, None, None, "Qh", "up"),
        ("post", 1, 5, 5, None, "bring_in"),
        ("complete", 2, 10, 10, None, None),
        ("fold", 4, None, None, None, None),
        ("call", 1, 5, 10, None, None),
    ]
    river = [e for e in stud if e["detail"] == "down" and e["cards"] in ("5h", "??")]
    assert [(e["seat"], e["cards"]) for e in river] == [(1, "5h"), (2, "??")]
    assert ("raise", 1, 40, 40, None, "all_in") in _compact(stud)
    assert ("annotation", 2, None, None, None, "said: nh") in _compact(stud)
    assert ("annotation", None, None, None, None, "pair_on_board") in _compact(stud)


def test_missed_blinds_uncalled_sitting_out_and_cancelled() -> None:
    rows, _, _ = _read(FIXTURES / "stud-complete.txt")
    hands = _hands(rows)
    nl = _compact(hands["ps:200000000002"])
    assert ("seat", 5, 1000, None, None, "sitting_out") in nl
    assert nl[7:9] == [("post", 1, 10, 10, None, "new_player"), ("post", 1, 5, None, None, "dead")]
    assert ("raise", 1, 20, 30, None, None) in nl
    assert ("award", 1, 20, None, None, "uncalled") in nl
    assert ("award", 1, 30, None, None, "main") in nl
    assert not any(e[0] == "deal" and e[1] == 5 for e in nl)  # sitting out: not dealt
    cancelled = hands["ps:200000000003"]
    assert cancelled[0]["detail"] == "cancelled=true"


@needs_samples
def test_triple_draw_draws() -> None:
    rows, _, _ = _read(SAMPLES / "stars-27-triple-draw.txt")
    events = _compact(rows)
    assert rows[0]["game"]["variant"] == "lowball_27_triple"
    assert ("deal", 2, None, None, "8s Td Kd Qs Qc", "hole") in events
    draws = [e for e in events if e[0] in ("draw", "stand_pat") or e[5] == "draw"]
    assert draws[:4] == [
        ("draw", 3, 3, None, "?? ?? ??", None), ("deal", 3, None, None, "?? ?? ??", "draw"),
        ("draw", 4, 2, None, "?? ??", None), ("deal", 4, None, None, "?? ??", "draw"),
    ]
    assert sum(1 for e in events if e[0] == "stand_pat") == 2
    assert ("award", 1, 129, None, None, "main") in events
    assert ("rake", None, 6, None, None, "rake") in events


@needs_samples
def test_run_it_twice_awards_and_boards() -> None:
    rows, _, _ = _read(SAMPLES / "stars-nlhe-run-it-twice.txt")
    events = _compact(rows)
    assert rows[0]["game"]["currency"] == "EUR"
    boards = [e for e in events if e[0] == "deal" and e[1] is None]
    assert [(e[4], e[5]) for e in boards] == [
        ("Js 9h Jh", "board"), ("Qs", "board"), ("2d", "board"), ("5h", "board@run2")]
    awards = [(e[1], e[2], e[5]) for e in events if e[0] == "award"]
    assert awards == [(6, 11159, "main"), (6, 11158, "main@run2")]
    mucks = [e for e in events if e[0] == "muck"]
    assert all(e[4] == "9s Ah" for e in mucks)  # cards from the summary's 'mucked [..]'


@needs_samples
def test_hilo_split_awards() -> None:
    rows, _, _ = _read(SAMPLES / "stars-plo8-6max.txt")
    hands = _hands(rows)
    split = [(e["seat"], e["amount"], e["detail"]) for e in hands["ps:" + _nth_id(
        SAMPLES / "stars-plo8-6max.txt", 2)] if e["kind"] == "award"]
    assert split == [(3, 20, "main/high"), (2, 10, "main/low"), (3, 9, "main/low")]
    for events in hands.values():
        if any(e["detail"] == "no_low" for e in events):
            assert all("/" not in (e["detail"] or "") for e in events if e["kind"] == "award")


def _nth_id(path: Path, n: int) -> str:
    return re.findall(rb"^(?:\xef\xbb\xbf)?PokerStars \w+ #(\d+)", path.read_bytes(),
                      re.MULTILINE)[n].decode()


@needs_samples
def test_tournament_antes_level_bounty() -> None:
    rows, _, _ = _read(SAMPLES / "stars-mtt-nlhe-knockout.txt")
    hands = _hands(rows)
    first = next(iter(hands.values()))
    game = first[0]["game"]
    assert (game["tournament"], game["level"], game["currency"], game["minor_per_unit"],
            game["small_blind"], game["big_blind"]) == (True, 1, "CHIPS", 1, 10, 20)
    with_antes = [h for h in hands.values() if any(e["detail"] == "ante" for e in h)]
    assert with_antes and all(h[0]["game"]["ante"] > 0 for h in with_antes)
    notes = [e["detail"] for e in rows if e["kind"] == "annotation"]
    assert any(d.startswith("bounty: ") for d in notes)
    assert any(d.startswith("finished: ") for d in notes)
    assert "timed_out" in notes and "returned" in notes


# --- encodings -------------------------------------------------------------------------


def test_encodings_import_identically(tmp_path: Path) -> None:
    text = (FIXTURES / "run-it-twice-utf8.txt").read_text(encoding="utf-8")
    variants = {
        "utf8.txt": text.encode("utf-8"),
        "bom.txt": text.encode("utf-8-sig"),
        "cp1252.txt": text.encode("cp1252"),
        "crlf.txt": text.replace("\n", "\r\n").encode("cp1252"),
        "trailing.txt": text.replace("\n", "  \t\n").encode("utf-8"),
    }
    results = []
    for name, data in variants.items():
        path = tmp_path / name
        path.write_bytes(data)
        assert detect_format(path) == "pokerstars"
        rows, _, rejected = _read(path)
        assert rejected == []
        results.append([{k: v for k, v in r.items() if k != "source"} for r in rows])
    assert all(r == results[0] for r in results[1:])
    assert results[0][1]["amount"] == 10916  # €109.16


# --- bad input -------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "line", "hand_id", "reason"), [
    ("bad-unknown-line.txt", 61, "ps:22865231671", "Player2: dances on the table"),
    ("bad-truncated.txt", 89, "ps:22865231671", "without '*** SUMMARY ***'"),
    ("bad-garbage.txt", 45, "ps:14311270221", "garbage"),
])
def test_bad_hand_is_quarantined_rest_imports(name: str, line: int, hand_id: str,
                                              reason: str) -> None:
    rows, _, rejected = _read(FIXTURES / name)
    assert len(rejected) == 1
    r = rejected[0]
    assert (r.line, r.hand_id) == (line, hand_id)
    assert reason in r.reason
    assert r.raw.startswith("PokerStars Game #")
    assert len(_hands(rows)) == 2 and hand_id not in _hands(rows)


def test_text_outside_hands_is_rejected_alone(tmp_path: Path) -> None:
    data = (FIXTURES / "nlhe-two-hands.txt").read_bytes()
    cut = data.index(b"PokerStars", 10)
    path = tmp_path / "x.txt"
    path.write_bytes(data[:cut] + b"\xff\x00 junk\n\n\n" + data[cut:])
    rows, _, rejected = _read(path)
    assert len(_hands(rows)) == 2
    assert [(r.hand_id, "outside any hand" in r.reason) for r in rejected] == [(None, True)]


def test_value_past_the_schema_quarantines_that_hand_only(tmp_path: Path) -> None:
    # 'Seat 300' fits no int8 seat: that hand is quarantined, never a traceback for the file.
    text = (FIXTURES / "nlhe-two-hands.txt").read_text(encoding="utf-8")
    cut = text.index("PokerStars", 10)
    path = tmp_path / "x.txt"
    path.write_text(text[:cut] + text[cut:].replace("Seat 1: ", "Seat 300: "), encoding="utf-8")
    rows, _, rejected = _read(path)
    assert len(_hands(rows)) == 1
    assert [(r.line, "does not fit the event schema" in r.reason) for r in rejected] == [
        (text[:cut].count("\n") + 1, True)]


def test_hands_split_the_same_whatever_the_read_size(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # The reader scans pieces of the file for hand boundaries; a boundary, a CRLF or a BOM
    # cut by a piece end must not change a hand, a line number or a rejection.
    from audit.importers.pokerstars import reader as pokerstars

    data = (FIXTURES / "nlhe-two-hands.txt").read_bytes()
    cut = data.index(b"PokerStars", 10)
    data = (b"\xef\xbb\xbf" + data[:cut] + b"junk\r\n \t\r\n" + data[cut:]).replace(
        b"\n", b"\r\n")
    path = tmp_path / "x.txt"
    path.write_bytes(data)
    results = []
    for size in (1, 2, 7, 64, 1 << 22):
        monkeypatch.setattr(pokerstars, "_READ_BYTES", size)
        rows, lines, rejected = _read(path)
        results.append((rows, lines, [(r.line, r.reason) for r in rejected]))
    assert len(_hands(results[0][0])) == 2 and len(results[0][2]) == 1
    assert all(r == results[0] for r in results[1:])


def test_registry_and_sniff() -> None:
    assert "pokerstars" in IMPORTERS
    imp = IMPORTERS["pokerstars"]
    assert imp.sniff(b"\xef\xbb\xbfPokerStars Zoom Hand #1: ...", Path("x"))
    assert imp.sniff(b"PokerStars Home Game #1: {Club} ...", Path("x"))
    assert not imp.sniff(b"variant = 'NT'\nactions = []", Path("x.txt"))


@pytest.mark.parametrize(("header", "reason"), [
    ("PokerStars Hand #1:  Courchevel Pot Limit ($0.05/$0.10 USD) - 2020/01/01 1:00:00 ET",
     "Courchevel is not supported"),
    ("PokerStars Hand #1:  Hold'em No Limit ($0.05/$0.10 USD)", "no ' - ' before the date"),
])
def test_unsupported_headers_are_rejected(tmp_path: Path, header: str, reason: str) -> None:
    body = (FIXTURES / "nlhe-two-hands.txt").read_text(encoding="utf-8").split("\n", 1)[1]
    path = tmp_path / "h.txt"
    path.write_text(header + "\n" + body, encoding="utf-8")
    rows, _, rejected = _read(path)
    assert len(rejected) == 1 and reason in rejected[0].reason


# --- fuzzing ---------------------------------------------------------------------------

_FUZZ_SOURCE = [FIXTURES / "nlhe-two-hands.txt", FIXTURES / "stud-complete.txt",
                FIXTURES / "bad-truncated.txt"]


@st.composite
def _mutated(draw: st.DrawFn) -> bytes:
    path = draw(st.sampled_from(_FUZZ_SOURCE))
    lines = path.read_bytes().split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "truncate", "swap", "garbage"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "truncate":
            lines = lines[:i] + [lines[i][: draw(st.integers(0, len(lines[i])))]]
        elif op == "swap":
            lines[i] = re.sub(rb"\d+(?:\.\d+)?", lambda m: m.group(0)[::-1], lines[i])
        else:
            junk = draw(st.binary(min_size=1, max_size=12))
            pos = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:pos] + junk + lines[i][pos:]
        if not lines:
            lines = [b""]
    return b"\n".join(lines)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=_mutated())
def test_fuzz_never_crashes_never_loses_a_hand(tmp_path_factory: pytest.TempPathFactory,
                                               data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "f.txt"
    path.write_bytes(data)
    rows, _, rejected = _read(path, chunk_hands=2)
    headers = sum(1 for raw in data.split(b"\n") if HEADER.match(raw))
    hand_rejects = [r for r in rejected if r.raw.lstrip("\ufeff").startswith("PokerStars ")]
    hands = _hands(rows)
    assert headers == len(hands) + len(hand_rejects)
    for r in rejected:
        assert r.reason and r.source == str(path)


# --- PokerKit cross-check --------------------------------------------------------------


@needs_samples
@pytest.mark.pokerkit
def test_pokerkit_agrees_on_stacks_and_winnings() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    path = SAMPLES / "stars-nlhe-6max-0.05-0.10.txt"
    text = path.read_text(encoding="utf-8-sig")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = {int(h.hand): h for h in pokerkit.HandHistory.from_pokerstars(text)}
    rows, _, _ = _read(path)
    compared = winnings = 0
    for hand_id, events in _hands(rows).items():
        hh = theirs.get(int(hand_id[3:]))
        if hh is None:
            continue
        seats = [e for e in events if e["kind"] == "seat"]
        stacks = {e["player"]: e["amount"] for e in seats}
        assert {p: round(s * 100) for p, s in zip(hh.players, hh.starting_stacks,
                                                    strict=True)} == stacks
        won: dict[str, int] = defaultdict(int)
        for e in events:
            if e["kind"] == "award" and e["detail"] != "uncalled":
                won[e["player"]] += e["amount"]
        if hh.winnings is not None:
            theirs_won = {p: round(w * 100) for p, w in zip(hh.players, hh.winnings,
                                                             strict=True) if w}
            # PokerKit reads winnings only from summary lines 'Seat N: P collected ($x)'
            # (not '(big blind) collected' nor 'showed ... and won'): compare those it has.
            for player, amount in theirs_won.items():
                assert won[player] == amount, hand_id
                winnings += 1
        compared += 1
    assert compared == 78 and winnings == 15


@pytest.mark.pokerkit
def test_import_benchmark_counts_every_hand_and_compares_with_pokerkit() -> None:
    pytest.importorskip("pokerkit")
    from audit.devtools.bench import bench_import

    result = bench_import(hands=300, pokerkit_hands=20)
    assert (result["hands"], result["pokerkit_hands"]) == (300, 20)
    assert result["ours_hands_per_second"] > 0 and result["ours_mb_per_second"] > 0
    assert result["ratio"] > 1  # a parse that is slower than PokerKit's is a regression


@pytest.mark.parametrize(("zone", "day"), [
    ("ET", (2010, 3, 14)), ("ET", (2010, 11, 7)), ("CET", (2010, 3, 28)),
    ("CET", (2010, 10, 31)), ("AEST", (2010, 4, 4)), ("AEST", (2010, 10, 3))])
def test_header_times_across_dst_changes_match_zoneinfo(zone: str, day: tuple[int, int, int]
                                                        ) -> None:
    # Header times use one UTC offset per local hour (looked up once); on the days the
    # clocks change, every minute must still convert as zoneinfo converts it (fold=0).
    import datetime as dt
    from zoneinfo import ZoneInfo

    from audit.importers.pokerstars.game import ZONES, _time

    tz = ZoneInfo(ZONES[zone])
    for minute in range(0, 24 * 60, 7):
        local = dt.datetime(*day, minute // 60, minute % 60, 30)
        got, note = _time(local.strftime(f"%Y/%m/%d %H:%M:%S {zone}"))
        assert (got, note) == (local.replace(tzinfo=tz).astimezone(dt.UTC), "")


def _brackets_by_hand(text: str) -> list[str]:
    """The card-list reading the importer's one-regex fast path must agree with."""
    out = []
    for part in text.split("] ["):
        inner = part.strip("[]")
        if any(len(c) != 2 or c[0] not in "23456789TJQKA" or c[1] not in "cdhs"
               for c in inner.split(" ")):
            raise ValueError(text)
        out.append(inner)
    if not text.startswith("[") or not text.endswith("]"):
        raise ValueError(text)
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["[", "]", " ", "Ah", "Kd", "2c", "Ts", "1h", "A", "x"]),
                max_size=12).map("".join))
def test_card_brackets_fast_path_reads_as_the_slow_path(text: str) -> None:
    from audit.importers.pokerstars.reader import _brackets

    def outcome(read: Any) -> Any:
        try:
            return read(text)
        except ValueError:
            return "rejected"

    assert outcome(_brackets) == outcome(_brackets_by_hand)


@needs_samples
def test_progressive_knockout_seat_lines_and_the_tournament_winner(tmp_path: Path) -> None:
    """'Seat 1: P (1500 in chips, $0.50 bounty)' is a seat like any other (the bounty is no
    chips in play), and 'P wins the tournament ...' is the winner's finish, not a bounty."""
    text = (SAMPLES / "stars-mtt-nlhe-knockout.txt").read_text(encoding="utf-8")
    first = text.split("\n\n\n")[0].strip() + "\n"
    plain, knockout = tmp_path / "plain.txt", tmp_path / "knockout.txt"
    won = "g0ty4 wins the tournament and receives $23.45 - congratulations!\n"
    plain.write_text(first.replace("*** SUMMARY ***", won + "*** SUMMARY ***"),
                     encoding="utf-8")
    knockout.write_text(re.sub(r"^(Seat \d+: .+ \(\d+ in chips)\)", r"\1, $0.50 bounty)",
                               plain.read_text(encoding="utf-8"), flags=re.MULTILINE),
                        encoding="utf-8")
    assert knockout.read_text(encoding="utf-8").count("bounty)") >= 2
    for fast in (True, False):
        rows, _, rejected = _read(knockout, fast=fast)
        plain_rows, _, _ = _read(plain, fast=fast)
        assert rejected == []
        drop = ("source",)
        assert ([{k: v for k, v in r.items() if k not in drop} for r in rows]
                == [{k: v for k, v in r.items() if k not in drop} for r in plain_rows])
        notes = [r["detail"] for r in rows if r["kind"] == "annotation"]
        assert "finished: g0ty4 wins the tournament and receives $23.45 - congratulations!" in notes
