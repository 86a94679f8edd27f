"""`poker-audit bench`: throughput measured side by side with PokerKit on the same hands.

Each benchmark runs ours and the reference on identical input in one process and reports a
ratio, so the figures compare like with like on whatever machine runs them. PokerKit is a
development dependency (the `dev` extra), imported only here and only when a benchmark runs.
"""

from __future__ import annotations

import platform
import re
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.devtools.fast_bench import bench_engines, format_engines
from audit.errors import AuditInputError
from audit.export import to_phh
from audit.importers.phh import PhhImporter, _split_hands
from audit.importers.pokerstars import fast as pokerstars_fast
from audit.importers.pokerstars.importer import PokerStarsImporter
from audit.ingest.pipeline import ingest
from audit.poker.cards import card_str
from audit.poker.evaluate.high import high_strength
from audit.poker.evaluate.tables import high_strength_many
from audit.replay import Settings, hands_from_table, replay_hand
from audit.replay.fast.table import replay_table_fast
from audit.rules.profiles import load_profile
from audit.schema import arrow_schema, events_table
from audit.simulate import simulate
from audit.store.dataset import Store, read_event_file

DEMO_PHH = Path(__file__).resolve().parents[1] / "demo_data" / "handhq-ps-50nl-excerpt.phhs"


def _pokerkit() -> Any:
    try:
        import pokerkit
    except ImportError:
        raise AuditInputError(
            "poker-audit bench compares against PokerKit, a development dependency: "
            "pip install 'poker-audit[dev]'"
        ) from None
    return pokerkit


def _best_seconds(run: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


# ---------------------------------------------------------------------------- replay


def _read_phh_hands(phh_files: Sequence[Path]) -> list[pa.Table]:
    """The hands of the PHH files as event tables; an AuditInputError naming the file when
    one is not a regular file, cannot be read as PHH or holds no hand the importer reads."""
    importer = PhhImporter()
    schema = arrow_schema("events")
    tables = []
    for path in phh_files:
        if not Path(path).is_file():  # a FIFO or a device would hang the read
            raise AuditInputError(f"{path}: not a regular file; bench --phh takes PHH files "
                                  "(.phh, .phhs)")
        try:
            chunks = list(importer.read(path))
        except Exception as exc:  # whatever the file's content made the importer raise
            raise AuditInputError(f"{path}: not a PHH file bench can replay "
                                  f"({type(exc).__name__}: {str(exc)[:120]}); bench --phh "
                                  "takes PHH files (.phh, .phhs)") from None
        read = [chunk.table.cast(schema) for chunk in chunks if chunk.table.num_rows]
        rejected = [r for chunk in chunks for r in chunk.rejected]
        if not read:
            why = f" (first rejected: {str(rejected[0].reason)[:120]})" if rejected else ""
            raise AuditInputError(f"{path}: no PHH hands in it{why}; bench --phh takes PHH "
                                  "files (.phh, .phhs)")
        tables += read
    return tables


def bench_replay(phh_files: Sequence[Path], *, repeats: int = 3, pokerkit_hands: int = 400
                 ) -> dict[str, Any]:
    """Hands/s replaying and validating the same real hands: ours (the audit's path: the
    compiled fast path plus the reference replay for the hands it hands back, findings and
    projections included) and our reference replay alone, vs PokerKit's HandHistory replay.

    Parsing is excluded on both sides: ours replays events already imported (decoding the
    Arrow columns is included); PokerKit's HandHistory objects are parsed from the PHH text
    before the clock starts. The one-time load (or first compile) of the kernel is reported
    apart.
    """
    pokerkit = _pokerkit()
    tables = _read_phh_hands(phh_files)
    table = pa.concat_tables(tables)
    hands = [h for t in tables for h in hands_from_table(t)]
    settings = Settings(load_profile("montana"))
    tournament = Settings(load_profile("montana", ("tournament",)))
    start = time.perf_counter()
    first = replay_table_fast(table, settings, tournament)
    kernel_load_s = time.perf_counter() - start

    def ours() -> None:
        replay_table_fast(table, settings, tournament)

    def reference() -> None:
        for hand in hands:
            replay_hand(hand, settings)

    ours_s = _best_seconds(ours, repeats)
    reference_s = _best_seconds(reference, max(1, repeats - 1))
    # a hand that is not UTF-8 was rejected above; PokerKit then names it (below)
    texts = [(path, b"".join(raw.body).decode("utf-8", errors="replace")) for path in phh_files
             for raw in _split_hands(path)]
    histories = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path, text in texts[:pokerkit_hands]:
            try:
                histories.append(pokerkit.HandHistory.loads(text))
            except Exception as exc:  # PokerKit's own parser: any error is this file's
                raise AuditInputError(f"{path}: PokerKit cannot read a hand of it "
                                      f"({type(exc).__name__}: {str(exc)[:120]}); bench "
                                      "needs PHH hands both replayers read") from None

        def theirs() -> None:
            for history in histories:
                for _ in history.state_actions:
                    pass

        theirs_s = _best_seconds(theirs, max(1, repeats - 1))
    ours_rate = len(hands) / ours_s
    reference_rate = len(hands) / reference_s
    theirs_rate = len(histories) / theirs_s
    return {
        "hands": len(hands),
        "pokerkit_hands": len(histories),
        "ours_hands_per_second": round(ours_rate),
        "reference_hands_per_second": round(reference_rate),
        "pokerkit_hands_per_second": round(theirs_rate),
        "ratio": round(ours_rate / theirs_rate, 1),
        "reference_ratio": round(reference_rate / theirs_rate, 1),
        "fast_path_share": round(first.fast_hands / max(1, len(hands)), 3),
        "handed_back": {str(k): v for k, v in sorted(first.reasons.items())},
        "kernel_load_seconds": round(kernel_load_s, 2),
        "target_ratio": 100,
    }


# PokerKit's stud and draw variants, as the simulator names the games, and the structure.
# PokerKit plays none of five-card or Mississippi stud, ace-to-five, jacks or better, draw
# high, or 2-7 single draw at fixed limit; of the big-bet draw games, no-limit 2-7 single draw
STUD_DRAW_GAMES = (("F7S", "stud", "fixed_limit"), ("F7S/8", "stud_hilo", "fixed_limit"),
                   ("FR", "razz", "fixed_limit"),
                   ("F2L3D", "lowball_27_triple", "fixed_limit"),
                   ("FB", "badugi", "fixed_limit"),
                   ("N2L1D", "lowball_27_single", "no_limit"))


def at_structure(events: pa.Table, structure: str) -> pa.Table:
    """The same hands at another betting structure (the simulator deals the draw games at
    fixed limit; its bets and raises, one bet more each, are legal big-bet wagers where they
    reach the minimum; any that is not is a finding both replays must agree on)."""
    game = events.column("game").combine_chunks()
    names = [game.type.field(i).name for i in range(game.type.num_fields)]
    fields = [game.field(i) for i in range(game.type.num_fields)]
    at = names.index("structure")
    fields[at] = pa.array([structure] * len(game), game.type.field(at).type)
    # a big-bet header: the minimum bet is the big blind; no fixed-limit bet sizes
    fields[names.index("min_bet")] = fields[names.index("big_blind")].cast(
        game.type.field(names.index("min_bet")).type)
    for name in ("small_bet", "big_bet"):
        i = names.index(name)
        fields[i] = pa.nulls(len(game), game.type.field(i).type)
    return events.set_column(events.column_names.index("game"), events.field("game"),
                             pa.StructArray.from_arrays(fields, fields=list(game.type),
                                                        mask=game.is_null()))


def bench_stud_draw(*, hands: int = 1_000, repeats: int = 3, seed: int = 7
                    ) -> dict[str, Any]:
    """Hands/s replaying and validating stud and draw hands: ours (the audit's path) vs
    PokerKit's HandHistory replay, per game, on the same hands.

    The hands are simulated (fixed limit; the no-limit game's are relabelled), exported to
    PHH, and kept when PokerKit replays them (it refuses some of the simulator's table
    situations, e.g. a player sitting out); both sides then replay exactly the kept hands.
    Parsing is excluded on both sides."""
    pokerkit = _pokerkit()
    settings = Settings(load_profile("montana"))
    tournament = Settings(load_profile("montana", ("tournament",)))
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for code, variant, structure in STUD_DRAW_GAMES:
            store = Store(Path(tmp) / variant)
            simulate(store.root, hands=hands, seed=seed, variant=variant,
                     structure="fixed_limit", tables=4)
            events = pa.concat_tables([read_event_file(f) for f in store.event_files()])
            if structure != "fixed_limit":
                events = at_structure(events, structure)
            kept_ids, histories = [], []
            for hand in _hand_rows(events):
                try:
                    history = pokerkit.HandHistory.loads(to_phh(hand))
                    for _ in history.state_actions:
                        pass
                except Exception:  # noqa: BLE001 - PokerKit's refusals are its own
                    continue
                kept_ids.append(hand[0]["hand_id"])
                histories.append(history)
            kept = events.filter(pc.is_in(events.column("hand_id"), pa.array(kept_ids)))

            def ours(kept: pa.Table = kept) -> None:
                replay_table_fast(kept, settings, tournament)

            def theirs(histories: list[Any] = histories) -> None:
                for history in histories:
                    for _ in history.state_actions:
                        pass

            ours()  # the kernel's one-time load is not the replay's speed
            ours_rate = len(kept_ids) / _best_seconds(ours, repeats)
            theirs_rate = len(histories) / _best_seconds(theirs, repeats)
            out[code] = {"simulated": hands, "hands": len(kept_ids),
                         "ours_hands_per_second": round(ours_rate),
                         "pokerkit_hands_per_second": round(theirs_rate),
                         "ratio": round(ours_rate / theirs_rate, 1)}
    return out


def _hand_rows(events: pa.Table) -> list[list[dict[str, Any]]]:
    hands: dict[str, list[dict[str, Any]]] = {}
    for row in events.to_pylist():
        hands.setdefault(row["hand_id"], []).append(row)
    return list(hands.values())


# ---------------------------------------------------------------------------- evaluator


def bench_evaluator(*, hands: int = 1_000_000, scalar_hands: int = 50_000,
                    pokerkit_hands: int = 3_000, repeats: int = 3, seed: int = 20240611
                    ) -> dict[str, Any]:
    """7-card high evaluations/s on the same seeded random hands: ours vectorised, ours
    scalar, PokerKit's StandardHighHand (each on a prefix when slower)."""
    pokerkit = _pokerkit()
    rng = np.random.default_rng(seed)
    deals = np.argsort(rng.random((hands, 52)), axis=1)[:, :7].copy()
    scalar_rows = deals[:scalar_hands].tolist()
    pk_rows = ["".join(card_str(c) for c in row) for row in deals[:pokerkit_hands].tolist()]
    start = time.perf_counter()
    high_strength_many(deals[:1])  # builds the lookup tables
    build = time.perf_counter() - start
    many = high_strength_many(deals)
    if not np.array_equal(many[: len(scalar_rows)], [high_strength(r) for r in scalar_rows]):
        raise AssertionError("vectorised and scalar evaluators disagree")
    vec = hands / _best_seconds(lambda: high_strength_many(deals), repeats)
    scalar = scalar_hands / _best_seconds(
        lambda: [high_strength(r) for r in scalar_rows], repeats)
    theirs = pokerkit_hands / _best_seconds(
        lambda: [pokerkit.StandardHighHand.from_game(r) for r in pk_rows], 1)
    rates = {"vectorised": round(vec), "scalar": round(scalar), "pokerkit": round(theirs)}
    counts = {"vectorised": hands, "scalar": scalar_hands, "pokerkit": pokerkit_hands}
    treys = _treys_rate(deals[:scalar_hands], repeats)
    if treys is not None:
        rates["treys"] = round(treys)
        counts["treys"] = scalar_hands
    return {
        "hands": counts,
        "table_build_seconds": round(build, 3),
        "evals_per_second": rates,
        "ratio": round(vec / theirs, 1),
        "scalar_ratio": round(scalar / theirs, 1),
        "treys_ratio": round(vec / treys, 1) if treys else None,
        "target_ratio": 1000,
        "target_evals_per_second": 5_000_000,
    }


def _treys_rate(deals: np.ndarray, repeats: int) -> float | None:
    """7-card evaluations/s of treys (a well-known pure-Python lookup evaluator), when
    installed (dev extra), on the same hands."""
    try:
        from treys import Card, Evaluator
    except ImportError:
        return None

    evaluator = Evaluator()
    rows = [[Card.new(card_str(c)) for c in row] for row in deals.tolist()]
    return len(rows) / _best_seconds(
        lambda: [evaluator.evaluate(r[:2], r[2:]) for r in rows], repeats)


# ---------------------------------------------------------------------------- ingest


def synthetic_events(n_events: int) -> pa.Table:
    """About n_events rows of complete, distinct three-player hands (15 events each)."""
    template = events_table(_template_hand())
    per_hand = template.num_rows
    count = max(1, n_events // per_hand)
    table = template.take(pa.array(np.tile(np.arange(per_hand), count)))
    hand_no = pa.array(np.repeat(np.arange(count), per_hand)).cast(pa.string())
    return table.set_column(0, "hand_id", pc.binary_join_element_wise("bench:", hand_no, ""))


def _template_hand() -> list[dict[str, Any]]:
    from datetime import UTC, datetime

    rows: list[dict[str, Any]] = [
        {"kind": "hand_started", "ts": datetime(2026, 11, 1, 10, tzinfo=UTC), "game": {
            "variant": "holdem", "structure": "no_limit", "small_blind": 50, "big_blind": 100,
            "button_seat": 1, "seat_count": 6, "currency": "USD", "minor_per_unit": 100}},
        {"kind": "seat", "seat": 1, "player": "ann", "amount": 10000},
        {"kind": "seat", "seat": 2, "player": "bob", "amount": 10000},
        {"kind": "seat", "seat": 3, "player": "cat", "amount": 10000},
        {"kind": "post", "seat": 2, "detail": "small_blind", "amount": 50, "total": 50},
        {"kind": "post", "seat": 3, "detail": "big_blind", "amount": 100, "total": 100},
        {"kind": "deal", "seat": 1, "detail": "hole", "cards": "As Kd"},
        {"kind": "deal", "seat": 2, "detail": "hole", "cards": "?? ??"},
        {"kind": "deal", "seat": 3, "detail": "hole", "cards": "?? ??"},
        {"kind": "raise", "seat": 1, "amount": 300, "total": 300},
        {"kind": "fold", "seat": 2},
        {"kind": "fold", "seat": 3},
        {"kind": "award", "seat": 1, "amount": 200, "detail": "uncalled"},
        {"kind": "award", "seat": 1, "amount": 250, "detail": "main"},
        {"kind": "hand_ended"},
    ]
    for seq, row in enumerate(rows):
        row.update(hand_id="template", seq=seq, table_id="bench")
    return rows


def bench_ingest(n_events: int = 1_000_000) -> dict[str, Any]:
    """Native Parquet ingest of synthetic events vs the raw read_table + write_table floor."""
    table = synthetic_events(n_events)
    with tempfile.TemporaryDirectory(prefix="poker-audit-bench-") as tmp:
        src = Path(tmp) / "events.parquet"
        pq.write_table(table, src, compression="zstd")
        start = time.perf_counter()
        pq.write_table(pq.read_table(src), Path(tmp) / "copy.parquet", compression="zstd")
        floor = time.perf_counter() - start
        start = time.perf_counter()
        summary = ingest([src], Store(Path(tmp) / "store"))
        elapsed = time.perf_counter() - start
    if summary.quarantined or summary.rows != table.num_rows:
        raise AssertionError(f"bench ingest lost rows: {summary}")
    return {
        "events": table.num_rows,
        "hands": summary.hands,
        "events_per_second": round(table.num_rows / elapsed),
        "hands_per_second": round(summary.hands / elapsed),
        "seconds": round(elapsed, 3),
        "floor_seconds": round(floor, 3),
        "ratio_to_floor": round(elapsed / floor, 2),
        "target_ratio_to_floor": 3.0,
    }


# ---------------------------------------------------------------------------- import

STARS_SAMPLE = (Path(__file__).resolve().parents[3] / "shared" / "data" / "fpdb-sample"
                / "stars-nlhe-6max-0.05-0.10.txt")
STARS_FIXTURE = (Path(__file__).resolve().parents[2] / "fixtures" / "pokerstars"
                 / "nlhe-two-hands.txt")
_STARS_NUMBER = re.compile(rb"^(PokerStars (?:Hand|Game) #)(\d+)", re.MULTILINE)


def write_stars_file(path: Path, hands: int, sample: Path | None = None) -> int:
    """Write `hands` real PokerStars hands (the sample repeated, each with a fresh hand
    number, hands apart by two blank lines); returns the file's size in bytes. The one input
    of the import benchmark (`bench_import`, `bench/bench_import.py`)."""
    source = sample or (STARS_SAMPLE if STARS_SAMPLE.exists() else STARS_FIXTURE)
    data = source.read_bytes().removeprefix(b"\xef\xbb\xbf")
    starts = [m.start() for m in _STARS_NUMBER.finditer(data)] + [len(data)]
    texts = [data[a:b].rstrip() + b"\n\n\n" for a, b in zip(starts, starts[1:], strict=False)]
    with path.open("wb") as f:
        for i in range(hands):
            f.write(_STARS_NUMBER.sub(lambda m, i=i: m.group(1) + str(10**11 + i).encode(),
                                      texts[i % len(texts)], count=1))
    return path.stat().st_size


def bench_import(*, hands: int = 100_000, pokerkit_hands: int = 2_000, repeats: int = 1,
                 reference: bool = True) -> dict[str, Any]:
    """PokerStars text import, ours vs PokerKit's PokerStars parser on the same real hands in
    one run: the one definition of the import figure (`poker-audit bench` and
    bench/bench_import.py both report this function's result).

    The figure is hands per CPU-second: `hands` hands written by `write_stars_file`, read
    whole by `PokerStarsImporter().read` (the product's path: read, decode, parse, Arrow
    chunks of the default size, each chunk's hands counted), timed as `time.process_time`,
    i.e. user + system seconds of every thread of the process (polars' workers included), so
    it is the one-core cost whatever else runs on the machine; wall time is reported beside
    it. The one-time set-up (importing the fast path, polars' thread pool and regexes, a first
    small import) is measured apart, before. Best of `repeats`. PokerKit parses a prefix of
    the same hands (`pokerkit_hands`; it is much slower), timed the same way; `ratio` is per
    CPU-second. `reference` also times the line parser alone (what the fast path hands
    back to) on the same file."""
    import resource

    pokerkit = _pokerkit()
    with tempfile.TemporaryDirectory(prefix="poker-audit-bench-") as tmp:
        ours_path, theirs_path = Path(tmp) / "ours.txt", Path(tmp) / "theirs.txt"
        size = write_stars_file(ours_path, hands)
        theirs_size = write_stars_file(theirs_path, pokerkit_hands)

        def timed(run: Callable[[], object]) -> tuple[float, float, object]:
            """(CPU-seconds, wall seconds, result) of the best of `repeats` runs."""
            best: tuple[float, float, object] = (float("inf"), float("inf"), None)
            for _ in range(repeats):
                cpu, wall = time.process_time(), time.perf_counter()
                result = run()
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                if cpu < best[0]:
                    best = (cpu, wall, result)
            return best

        def read(fast: bool) -> tuple[int, int, dict[str, int]]:
            imported = rejected = 0
            stats: dict[str, int] = {}
            for chunk in PokerStarsImporter(fast=fast).read(ours_path, stats=stats):
                imported += pc.sum(pc.equal(chunk.table.column("kind"), "hand_started")
                                   ).as_py() or 0
                rejected += len(chunk.rejected)
            return imported, rejected, stats

        # the one-time set-up of the fast path, on the smaller file, apart
        setup_cpu = time.process_time()
        for _ in PokerStarsImporter().read(theirs_path):
            pass
        pokerstars_fast.warm_up(theirs_path)  # (a small file is the parser's alone)
        setup_cpu = time.process_time() - setup_cpu
        ours_cpu, ours_wall, result = timed(lambda: read(True))
        imported, rejected, stats = result  # type: ignore[misc]
        if (imported, rejected) != (hands, 0):
            raise AssertionError(f"bench import lost hands: {imported} of {hands}, "
                                 f"{rejected} rejected")
        peak_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        out: dict[str, Any] = {
            "format": "pokerstars",
            "hands": hands,
            "megabytes": round(size / 1e6, 1),
            "ours_cpu_seconds": round(ours_cpu, 3),
            "ours_wall_seconds": round(ours_wall, 3),
            "ours_hands_per_cpu_second": round(hands / ours_cpu),
            "ours_hands_per_second": round(hands / ours_wall),
            "ours_mb_per_cpu_second": round(size / 1e6 / ours_cpu, 2),
            "ours_mb_per_second": round(size / 1e6 / ours_wall, 2),
            "fast_path_share": round(stats.get("fast", 0) / max(1, stats.get("hands", 0)), 3),
            "fast_path_setup_cpu_seconds": round(setup_cpu, 3),
            "peak_rss_mb": round(peak_rss_mb),
        }
        if reference:
            ref_cpu, ref_wall, result = timed(lambda: read(False))
            if result[:2] != (hands, 0):  # type: ignore[index]
                raise AssertionError(f"bench import (line parser) lost hands: {result}")
            out["reference_hands_per_cpu_second"] = round(hands / ref_cpu)
            out["reference_hands_per_second"] = round(hands / ref_wall)
        text = theirs_path.read_text(encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs_cpu, theirs_wall, parsed = timed(
                lambda: sum(1 for _ in pokerkit.HandHistory.from_pokerstars(text)))
        if parsed != pokerkit_hands:
            raise AssertionError(f"PokerKit parsed {parsed} of {pokerkit_hands} hands")
    ours_rate, theirs_rate = hands / ours_cpu, pokerkit_hands / theirs_cpu
    return {
        **out,
        "pokerkit_hands": pokerkit_hands,
        "pokerkit_hands_per_cpu_second": round(theirs_rate),
        "pokerkit_hands_per_second": round(pokerkit_hands / theirs_wall),
        "pokerkit_mb_per_cpu_second": round(theirs_size / 1e6 / theirs_cpu, 3),
        "ratio": round(ours_rate / theirs_rate, 1),
        "target_ratio": 10,
        "target_hands_per_second": 20_000,  # per CPU-second (ours_hands_per_cpu_second)
    }


# ---------------------------------------------------------------------------- all


def run_bench(phh_files: Sequence[Path] = (), *, quick: bool = False,
              echo: Callable[[str], None] = print) -> dict[str, Any]:
    """Every benchmark; `quick` shrinks the inputs (for tests and a first look)."""
    files = list(phh_files) or [DEMO_PHH]
    result: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine()}
    echo(f"replay: {', '.join(p.name for p in files)}")
    replay = bench_replay(files, repeats=1 if quick else 3, pokerkit_hands=50 if quick else 400)
    echo(f"  ours {replay['ours_hands_per_second']:,} hands/s, PokerKit "
         f"{replay['pokerkit_hands_per_second']:,} hands/s: {replay['ratio']}x "
         f"(target {replay['target_ratio']}x); reference replay alone "
         f"{replay['reference_hands_per_second']:,} hands/s ({replay['reference_ratio']}x); "
         f"{replay['fast_path_share']:.1%} of hands proven clean by the compiled path")
    result["replay"] = replay
    stud_draw = bench_stud_draw(hands=100 if quick else 1_000, repeats=1 if quick else 3)
    echo("replay, stud and draw (simulated hands PokerKit replays): "
         + "; ".join(f"{code} {r['ours_hands_per_second']:,} vs PokerKit "
                     f"{r['pokerkit_hands_per_second']:,} hands/s = {r['ratio']}x "
                     f"({r['hands']} hands)" for code, r in stud_draw.items()))
    result["replay_stud_draw"] = stud_draw
    evaluator = bench_evaluator(hands=20_000 if quick else 1_000_000,
                                scalar_hands=2_000 if quick else 50_000,
                                pokerkit_hands=300 if quick else 3_000,
                                repeats=1 if quick else 3)
    rates = evaluator["evals_per_second"]
    echo(f"evaluator (7-card high): ours {rates['vectorised']:,}/s vectorised, "
         f"{rates['scalar']:,}/s scalar; PokerKit {rates['pokerkit']:,}/s: "
         f"{evaluator['ratio']}x (target {evaluator['target_ratio']}x)"
         + (f"; treys {rates['treys']:,}/s: {evaluator['treys_ratio']}x" if "treys" in rates
            else ""))
    result["evaluator"] = evaluator
    ingest = bench_ingest(50_000 if quick else 1_000_000)
    echo(f"ingest (native Parquet): {ingest['events_per_second']:,} events/s, "
         f"{ingest['hands_per_second']:,} hands/s; {ingest['ratio_to_floor']}x the "
         f"read+write floor (target <= {ingest['target_ratio_to_floor']}x)")
    result["ingest"] = ingest
    imported = bench_import(hands=5_000 if quick else 100_000,
                            pokerkit_hands=200 if quick else 2_000)
    # the ratio and the target are per CPU-second (one core); wall rates are shown beside them
    echo(f"import (PokerStars text): ours {imported['ours_hands_per_cpu_second']:,} hands per "
         f"CPU-second ({imported['ours_mb_per_cpu_second']} MB per CPU-second; "
         f"{imported['ours_hands_per_second']:,} hands/s wall; line parser alone "
         f"{imported['reference_hands_per_cpu_second']:,} per CPU-second; "
         f"{imported['fast_path_share']:.1%} of hands on the fast path), PokerKit "
         f"{imported['pokerkit_hands_per_cpu_second']:,} per CPU-second: {imported['ratio']}x "
         f"(target {imported['target_ratio']}x and {imported['target_hands_per_second']:,} "
         f"hands per CPU-second)")
    result["import"] = imported
    # the Python engine (injections, colluders, other games) and the compiled NLHE engine
    # (clean NLHE cash runs) on the same command, one run, with their play side by side
    sim = bench_engines(python_hands=2_000 if quick else 20_000,
                        fast_hands=20_000 if quick else 200_000, stats=not quick)
    for line in format_engines(sim):
        echo(line)
    result["simulate"] = sim
    return result
