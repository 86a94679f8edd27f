"""Benchmark: PokerStars import throughput (hands per CPU-second, MB/s), ours vs PokerKit.

A command line over `audit.devtools.bench.bench_import`, the one definition of the figure (the same
function `poker-audit bench` reports): the real NLHE cash sample repeated with fresh hand
numbers (`audit.devtools.bench.write_stars_file`, default 100,000 hands), read whole by
`PokerStarsImporter().read`, timed in CPU-seconds of the process (all threads: the one-core
cost, whatever else runs on the machine), wall time beside it, the one-time set-up apart;
PokerKit's `HandHistory.from_pokerstars` on a prefix of the same hands, timed the same way.
With `--reference` the line parser alone is timed too; with `--gigabyte` a ~1 GB file is
imported as well and the peak RSS reported (bounded memory). JSON to stdout, a summary to
stderr.

Example:
    .venv/bin/python bench/bench_import.py --hands 100000 --pokerkit-hands 2000
"""

from __future__ import annotations

import argparse
import json
import sys

from audit.devtools.bench import bench_import

# bytes per hand of the sample as `write_stars_file` writes it (to size the ~1 GB file)
_BYTES_PER_HAND = 1_068


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--pokerkit-hands", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=1, help="best of this many runs")
    parser.add_argument("--reference", action="store_true",
                        help="also time the line parser alone")
    parser.add_argument("--gigabyte", action="store_true", help="also import a ~1 GB file")
    args = parser.parse_args(argv)
    out: dict[str, object] = {"import": bench_import(
        hands=args.hands, pokerkit_hands=args.pokerkit_hands, repeats=args.repeats,
        reference=args.reference)}
    if args.gigabyte:
        out["gigabyte"] = bench_import(hands=10**9 // _BYTES_PER_HAND, pokerkit_hands=200,
                                       reference=False)
    print(json.dumps(out, indent=2))
    for name, result in out.items():
        assert isinstance(result, dict)
        print(f"{name}: {result['hands']:,} hands, {result['megabytes']} MB: "
              f"{result['ours_hands_per_cpu_second']:,} hands per CPU-second "
              f"({result['ours_mb_per_cpu_second']} MB per CPU-second; "
              f"{result['ours_hands_per_second']:,} hands/s and {result['ours_mb_per_second']} "
              f"MB/s wall), PokerKit {result['pokerkit_hands_per_cpu_second']:,} per "
              f"CPU-second: {result['ratio']}x; set-up {result['fast_path_setup_cpu_seconds']} "
              f"CPU-s apart; peak RSS {result['peak_rss_mb']} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
