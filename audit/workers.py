"""Worker process pools (audit --workers N, ingest --workers N) whose processes die with the
command that started them, however it died (even SIGKILL), and keep Arrow and polars to one
thread each.

A pool runs a forkserver that forks the N workers, plus multiprocessing's resource tracker.
Left alone, a killed command leaves all of them behind forever: each worker holds the write
end of its own task queue (so it never sees end of file), the forkserver lives while any
worker holds its "alive" pipe, and the tracker while anyone holds its pipe. An orphaned
worker also keeps writing into the store (an audit's `runs/.<id>.tmp`, an ingest's staging),
which the next writer deletes as abandoned.

Two guards, so the workers go and the rest follows on its own (the forkserver and the
tracker exit at end of file once no worker holds their pipes):

- everywhere: each worker watches a pipe whose only write end the command holds; end of file
  means the command is gone, and the worker exits. A worker busy in compiled code that holds
  the GIL exits when it next returns to Python;
- on Linux, at once: the kernel sends SIGKILL to the forkserver when the command dies and to
  each worker when the forkserver dies (prctl PR_SET_PDEATHSIG), whatever they are running.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection

import pyarrow as pa

# "<command pid>:<1 or 0>" in the environment the forkserver starts with (set by worker_pool
# while it starts the pool): tells the forkserver it is one, and whether to die with the
# command. 0 when the pool is started from another thread than the main one: PR_SET_PDEATHSIG
# fires when the *thread* that started a process ends, and the forkserver outlives pools.
PARENT_ENV = "POKER_AUDIT_POOL_PARENT"
PR_SET_PDEATHSIG = 1
EXIT_PARENT_GONE = 70  # nobody reads it (the parent is gone); distinct for a debugger

# In the forkserver: its own pid, inherited by the workers it forks (they check that their
# parent is still this process after asking to die with it).
forkserver_pid: int | None = None


def die_with_parent() -> bool:
    """Ask the kernel to SIGKILL this process when its parent thread ends (Linux only);
    False where that cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def pool_parent_env(*, arm: bool) -> str:
    """PARENT_ENV's value for a pool started by this process."""
    return f"{os.getpid()}:{int(arm)}"


def _arm_forkserver(value: str) -> None:
    """Run at import in the forkserver (worker_pool preloads a module that imports this one):
    remember its pid for the workers and die with the command. Only a direct child of the
    process named in PARENT_ENV that runs multiprocessing's forkserver does so."""
    global forkserver_pid
    parent, _, arm = value.partition(":")
    if "multiprocessing.forkserver" not in sys.modules or str(os.getppid()) != parent:
        return  # not the forkserver of the command that set the variable: leave it alone
    forkserver_pid = os.getpid()
    if arm == "1" and die_with_parent() and str(os.getppid()) != parent:
        os._exit(EXIT_PARENT_GONE)  # the command died before the request took effect


def guard_worker(parent_alive: Connection) -> None:
    """Exit when the command is gone (its end of `parent_alive` closed), and on Linux be
    killed with the forkserver."""
    if forkserver_pid is not None and die_with_parent() and os.getppid() != forkserver_pid:
        os._exit(EXIT_PARENT_GONE)  # the forkserver died before the request took effect
    threading.Thread(target=_exit_when_closed, args=(parent_alive,), daemon=True,
                     name="poker-audit-parent-watch").start()


def _exit_when_closed(parent_alive: Connection) -> None:
    try:
        parent_alive.recv_bytes()  # the command never writes: this returns only at end of file
    except (EOFError, OSError):
        pass
    os._exit(EXIT_PARENT_GONE)


@contextlib.contextmanager
def worker_pool(workers: int, preload: str) -> Iterator[ProcessPoolExecutor]:
    """N worker processes on N cores, each keeping Arrow and polars to its own thread
    instead of starting a thread per core (oversubscribed, slower, more memory), and each
    exiting when this process dies, however it dies (see above). `preload`, a module the
    forkserver imports once for every worker, must import this one (it arms the guard).

    forkserver, not fork: the parent may already run Arrow/polars/numba threads, and a forked
    copy of a held lock deadlocks the worker. The forkserver is one per process, started by
    the first pool (an ingest's and an audit's in one process share it), with that pool's
    preload. polars fixes its thread pool when the forkserver imports it, so
    POLARS_MAX_THREADS must be in the environment the forkserver starts with (the parent's
    own polars pool is already sized; the variable is restored), as must the guard's note
    that tells the forkserver to die with this process."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([preload])
    # the workers hold the read end; only this process holds the write end, so they see
    # end of file when it is gone
    parent_alive, keep_alive = context.Pipe(duplex=False)
    saved = {name: os.environ.get(name) for name in ("POLARS_MAX_THREADS", PARENT_ENV)}
    os.environ["POLARS_MAX_THREADS"] = "1"
    os.environ[PARENT_ENV] = pool_parent_env(
        arm=threading.current_thread() is threading.main_thread())
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=context,
                                 initializer=_start_worker, initargs=(parent_alive,)) as pool:
            yield pool
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        parent_alive.close()
        keep_alive.close()  # after the pool's shutdown waited for its workers


def _start_worker(parent_alive: Connection) -> None:
    guard_worker(parent_alive)
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)


if PARENT_ENV in os.environ:
    _arm_forkserver(os.environ.pop(PARENT_ENV))  # popped: not handed down to the workers
