"""The most memory a step holds at once, measured in a process of its own (the collusion
stage's memory tests, issue 24): its resident memory sampled every 2 ms while it runs, over
the size of the table it works on; polars' jemalloc told to hand freed pages back at once, so
that the growth is what the step held, not what the allocator kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# `growth(run)`: the step's most memory held, over the script's `size`
_SAMPLER = r"""
import gc, json, os, threading, time


def rss():
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def growth(run):
    gc.collect()
    base = rss()
    top, done = [base], threading.Event()

    def sample():
        while not done.is_set():
            top[0] = max(top[0], rss())
            time.sleep(0.002)

    sampler = threading.Thread(target=sample)
    sampler.start()
    got = run()
    done.set()
    sampler.join()
    del got
    return (top[0] - base) / size
"""


def measured(script: str) -> dict[str, float]:
    """Run `script` (it sets `size` and prints one JSON line of `growth(...)`s last) after the
    sampler, in a process of its own; what it printed."""
    root = Path(__file__).resolve().parents[2]
    env = os.environ | {"_RJEM_MALLOC_CONF": "dirty_decay_ms:0,muzzy_decay_ms:0",
                        "PYTHONPATH": os.pathsep.join(
                            [str(root), *filter(None, [os.environ.get("PYTHONPATH")])])}
    out = subprocess.run([sys.executable, "-c", _SAMPLER + script], cwd=root, env=env,
                         check=True, capture_output=True, text=True).stdout
    got: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return got
