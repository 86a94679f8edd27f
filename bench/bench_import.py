"""Benchmark: PokerStars import throughput (hands/s, MB/s), ours vs PokerKit's parser.

The input is the real NLHE cash sample repeated with fresh hand numbers (default 100,000
hands). Ours runs the full importer (`read`: decode, parse, Arrow chunks); PokerKit runs
`HandHistory.from_pokerstars` on a prefix of the same text (it is much slower). With
`--gigabyte` it also imports a ~1 GB generated file and reports peak RSS (bounded memory).
JSON to stdout, a summary to stderr.

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


def run_ours(path: Path) -> tuple[float, int, int]:
    start = time.perf_counter()
    hands = rejected = 0
    for chunk in PokerStarsImporter().read(path):
        hands += chunk.table.column("kind").to_pylist().count("hand_started")
        rejected += len(chunk.rejected)
    return time.perf_counter() - start, hands, rejected


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
        secs, hands, rejected = run_ours(path)
        assert hands == args.hands and rejected == 0, (hands, rejected)
        ours = hands / secs
        out["ours"] = {"hands": hands, "seconds": round(secs, 3), "hands_per_s": round(ours),
                       "mb_per_s": round(size / 1e6 / secs, 1)}

        from pokerkit import HandHistory  # benchmark/test dependency only

        pk_path = Path(tmp) / "pk.txt"
        pk_size = make_file(pk_path, args.pokerkit_hands)
        text = pk_path.read_text(encoding="utf-8")
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pk_hands = sum(1 for _ in HandHistory.from_pokerstars(text))
        pk_secs = time.perf_counter() - start
        pk = pk_hands / pk_secs
        out["pokerkit"] = {"hands": pk_hands, "seconds": round(pk_secs, 3),
                           "hands_per_s": round(pk), "mb_per_s": round(pk_size / 1e6 / pk_secs, 2)}
        out["ratio_vs_pokerkit"] = round(ours / pk, 1)

        if args.gigabyte:
            big = Path(tmp) / "big.txt"
            per_hand = size / args.hands
            big_size = make_file(big, int(1e9 / per_hand))
            secs, hands, rejected = run_ours(big)
            rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            out["gigabyte"] = {"bytes": big_size, "hands": hands, "seconds": round(secs, 1),
                               "hands_per_s": round(hands / secs),
                               "peak_rss_mb": round(rss_mb)}
    print(json.dumps(out, indent=2))
    print(f"ours {out['ours']}\npokerkit {out['pokerkit']}\nratio "
          f"{out['ratio_vs_pokerkit']}x", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
