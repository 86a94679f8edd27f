"""Worker processes die with the audit that started them, however it died (even SIGKILL).

`audit --workers N` runs a forkserver that forks the N workers, plus multiprocessing's
resource tracker. Left alone, a killed audit leaves all of them behind forever: each worker
holds the write end of its own task queue (so it never sees end of file), the forkserver
lives while any worker holds its "alive" pipe, and the tracker while anyone holds its pipe.
An orphaned worker also keeps writing into `runs/.<id>.tmp`, which the next open of the
store deletes as abandoned.

Two guards, so the workers go and the rest follows on its own (the forkserver and the
tracker exit at end of file once no worker holds their pipes):

- everywhere: each worker watches a pipe whose only write end the audit holds; end of file
  means the audit is gone, and the worker exits. A worker busy in compiled code that holds
  the GIL exits when it next returns to Python;
- on Linux, at once: the kernel sends SIGKILL to the forkserver when the audit dies and to
  each worker when the forkserver dies (prctl PR_SET_PDEATHSIG), whatever they are running.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
from multiprocessing.connection import Connection

# "<audit pid>:<1 or 0>" in the environment the forkserver starts with (set by worker_pool
# while it starts the pool): tells the forkserver it is one, and whether to die with the
# audit. 0 when the pool is started from another thread than the main one: PR_SET_PDEATHSIG
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
    """Run at import in the forkserver (worker_pool preloads audit.run.runner, which imports this
    module): remember its pid for the workers and die with the audit. Only a direct child
    of the process named in PARENT_ENV that runs multiprocessing's forkserver does so."""
    global forkserver_pid
    parent, _, arm = value.partition(":")
    if "multiprocessing.forkserver" not in sys.modules or str(os.getppid()) != parent:
        return  # not the forkserver of the audit that set the variable: leave it alone
    forkserver_pid = os.getpid()
    if arm == "1" and die_with_parent() and str(os.getppid()) != parent:
        os._exit(EXIT_PARENT_GONE)  # the audit died before the request took effect


def guard_worker(parent_alive: Connection) -> None:
    """Worker initializer: exit when the audit is gone (its end of `parent_alive` closed),
    and on Linux be killed with the forkserver."""
    if forkserver_pid is not None and die_with_parent() and os.getppid() != forkserver_pid:
        os._exit(EXIT_PARENT_GONE)  # the forkserver died before the request took effect
    threading.Thread(target=_exit_when_closed, args=(parent_alive,), daemon=True,
                     name="poker-audit-parent-watch").start()


def _exit_when_closed(parent_alive: Connection) -> None:
    try:
        parent_alive.recv_bytes()  # the audit never writes: this returns only at end of file
    except (EOFError, OSError):
        pass
    os._exit(EXIT_PARENT_GONE)


if PARENT_ENV in os.environ:
    _arm_forkserver(os.environ.pop(PARENT_ENV))  # popped: not handed down to the workers
