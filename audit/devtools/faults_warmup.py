"""Imported once by the fault-injection forkserver (audit.devtools.faults): compiles the replay
kernel there, so every forked trial inherits the machine code instead of spending seconds compiling
or loading it again. Only numpy, pyarrow and numba run here: no thread pool that a fork
could leave locked (polars and DuckDB stay unused until a trial runs). The Makefile's install
stamp runs it too (`python -m audit.devtools.faults_warmup`), so numba's cache holds the
replay kernel and the Merkle leaf writer before the first demo or test run."""

from __future__ import annotations

from audit.devtools.faults import hands_table
from audit.replay import Settings
from audit.replay.fast.table import replay_table_fast
from audit.rules.profiles import load_profile
from audit.schema import events_schema
from audit.store import merkle


def _warm() -> None:
    replay_table_fast(hands_table("warm", 3).cast(events_schema()),
                      Settings(load_profile("montana")))

    kernel = merkle._kernel()  # the compiled Merkle leaf writer of large ingests
    if kernel is not None:
        merkle.compiled_leaves(hands_table("warm", 3), kernel)


_warm()
