"""Benchmark: PokerStars import throughput (hands/s, MB/s), ours vs PokerKit's parser.

The input is the real NLHE cash sample repeated with fresh hand numbers (default 100,000
hands). Ours runs the full importer (`PokerStarsImporter.read`'s fast path, `read_fast`:
decode, parse, Arrow chunks); PokerKit runs `HandHistory.from_pokerstars` on a prefix of the
same text (it is much slower). The one-core cost is CPU-seconds of the process (polars works in
threads, and the machine may be shared, so wall time is reported too but is not the measure);
the one-time set-up (importing polars, pyarrow and the fast path) is measured apart, and the
fast path's share of the hands is reported. With `--gigabyte` it also imports a ~1 GB
generated file and reports peak RSS (bounded memory). JSON to stdout, a summary to stderr.

Example:
    .venv/bin/python bench/bench_import.py --hands 100000 --pokerkit-hands 2000
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pyarrow.compute as pc

from audit.importers.pokerstars import PokerStarsImporter

SAMPLE = (Path(__file__).resolve().parents[2] / "shared" / "data" / "fpdb-sample"
          / "stars-nlhe-6max-0.05-0.10.txt")
_NUMBER = re.compile(rb"^(PokerStars Game #)(\d+)", re.MULTILINE)


def _hands() -> list[bytes]:
    data = SAMPLE.read_bytes().removeprefix(b"\xef\xbb\xbf")
    starts = [m.start() for m in _NUMBER.finditer(data)] + [len(data)]
    return [data[a:b].rstrip() + b"\n\n\n\n" for a, b in zip(starts, starts[1:], strict=False)]


def make_file(path: Path, hands: int) -> int:
    """Write `hands` hands (the sample repeated, fresh numbers); returns the byte size."""
    sample = _hands()
    with path.open("wb") as f:
        for i in range(hands):
            hand = sample[i % len(sample)]
            f.write(_NUMBER.sub(lambda m, i=i: m.group(1) + str(10**11 + i).encode(), hand,
                                count=1))
    return path.stat().st_size


def _cpu() -> float:
    """CPU-seconds of this process so far, all threads (user + system)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def set_up() -> float:
    """Import the fast path (polars, pyarrow, numpy) once; its CPU-seconds."""
    start = _cpu()
    import audit.importers.pokerstars_fast  # noqa: F401 - the one-time set-up measured

    return _cpu() - start


def run_ours(path: Path) -> dict[str, float]:
    """Import `path` as `PokerStarsImporter.read` does; CPU and wall seconds, hands, the fast
    path's hands and rejections."""
    from audit.importers.pokerstars import _ChunkBuilder
    from audit.importers.pokerstars_fast import read_fast

    stats: dict[str, int] = {}
    cpu, wall = _cpu(), time.perf_counter()
    hands = rejected = 0
    for chunk in read_fast(path, _ChunkBuilder(path, PokerStarsImporter().chunk_hands), stats):
        hands += pc.sum(pc.equal(chunk.table.column("kind"), "hand_started")).as_py() or 0
        rejected += len(chunk.rejected)
    return {"cpu": _cpu() - cpu, "wall": time.perf_counter() - wall, "hands": hands,
            "fast": stats["fast"], "rejected": rejected}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--pokerkit-hands", type=int, default=2_000)
    parser.add_argument("--gigabyte", action="store_true", help="also import a ~1 GB file")
    args = parser.parse_args(argv)
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "stars.txt"
        size = make_file(path, args.hands)
        setup = set_up()
        run = run_ours(path)
        hands = int(run["hands"])
        assert hands == args.hands and run["rejected"] == 0, run
        ours = hands / run["cpu"]
        out["ours"] = {
            "hands": hands, "cpu_seconds": round(run["cpu"], 3),
            "wall_seconds": round(run["wall"], 3), "hands_per_cpu_s": round(ours),
            "hands_per_wall_s": round(hands / run["wall"]),
            "mb_per_cpu_s": round(size / 1e6 / run["cpu"], 1),
            "mb_per_wall_s": round(size / 1e6 / run["wall"], 1),
            "fast_share": round(run["fast"] / hands, 4),
            "setup_cpu_seconds": round(setup, 3),
            "hands_per_cpu_s_with_setup": round(hands / (run["cpu"] + setup))}

        from pokerkit import HandHistory  # benchmark/test dependency only

        pk_path = Path(tmp) / "pk.txt"
        pk_size = make_file(pk_path, args.pokerkit_hands)
        text = pk_path.read_text(encoding="utf-8")
        cpu = _cpu()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pk_hands = sum(1 for _ in HandHistory.from_pokerstars(text))
        pk_secs = _cpu() - cpu
        pk = pk_hands / pk_secs
        out["pokerkit"] = {"hands": pk_hands, "cpu_seconds": round(pk_secs, 3),
                           "hands_per_cpu_s": round(pk),
                           "mb_per_cpu_s": round(pk_size / 1e6 / pk_secs, 2)}
        out["ratio_vs_pokerkit"] = round(ours / pk, 1)

        if args.gigabyte:
            big = Path(tmp) / "big.txt"
            per_hand = size / args.hands
            big_size = make_file(big, int(1e9 / per_hand))
            run = run_ours(big)
            rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            out["gigabyte"] = {"bytes": big_size, "hands": run["hands"],
                               "cpu_seconds": round(run["cpu"], 1),
                               "wall_seconds": round(run["wall"], 1),
                               "hands_per_cpu_s": round(run["hands"] / run["cpu"]),
                               "peak_rss_mb": round(rss_mb)}
    print(json.dumps(out, indent=2))
    print(f"ours {out['ours']}\npokerkit {out['pokerkit']}\nratio "
          f"{out['ratio_vs_pokerkit']}x", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
