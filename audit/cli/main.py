"""The `poker-audit` command line: a thin click layer over the audit library.

Data goes to stdout, progress and messages to stderr. Exit codes: 0 clean; 1 completed but
flagged (quarantined input, failed verification, findings at or above --fail-on); 2 usage
error or unreadable input.

Each command lives in a module of audit/cli/ and is imported only when it runs or its help is
shown (COMMANDS), so `poker-audit verify` or `query` loads no importer, replay or simulator.
"""

from __future__ import annotations

import errno
import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any

import click

from audit import __version__
from audit.cli.common import CONTEXT_SETTINGS, InputProblem

# Every command: its name -> "module:attribute" of its click command, imported on first use.
COMMANDS: dict[str, str] = {
    "audit": "audit.cli.run:audit",
    "bench": "audit.cli.bench:bench",
    "collusion": "audit.cli.collusion:collusion_command",
    "demo": "audit.cli.demo:demo",
    "export": "audit.cli.query:export",
    "findings": "audit.cli.run:findings",
    "ingest": "audit.cli.ingest:ingest",
    "prove": "audit.cli.integrity:prove",
    "query": "audit.cli.query:query",
    "replay": "audit.cli.run:replay",
    "report": "audit.cli.report:report_command",
    "runs": "audit.cli.runs:runs_command",
    "simulate": "audit.cli.simulate:simulate_command",
    "sql-init": "audit.cli.report:sql_init_command",
    "verify": "audit.cli.integrity:verify",
    "verify-proof": "audit.cli.integrity:verify_proof",
}


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's commands by name, each imported from its "module:attribute" the first time it
    is looked up (to run it or show its help); listing or testing the names imports nothing."""

    def __init__(self, specs: Mapping[str, str], loaded: Mapping[str, click.Command]) -> None:
        self._specs = dict(specs)
        self._loaded = dict(loaded)

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            module, _, attr = self._specs[name].partition(":")  # KeyError: no such command
            command = getattr(importlib.import_module(module), attr)
            # Each command carries `-h` itself: click caches a command's help option the first
            # time it runs, and a command run on its own (a test, a notebook) would otherwise
            # cache `--help` alone and answer `poker-audit CMD -h` with a usage error ever after.
            command.context_settings = {**CONTEXT_SETTINGS, **command.context_settings}
            self._loaded[name] = command
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._specs.pop(name, None)
        self._loaded.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._specs or name in self._loaded

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self._specs), **dict.fromkeys(self._loaded)})

    def __len__(self) -> int:
        return len(self._specs.keys() | self._loaded.keys())


class LazyGroup(click.Group):
    """A click group whose commands are named by "module:attribute" (`lazy_commands`) and imported
    only when one runs or its help is shown; `--help` of the group imports them all for their
    one-line summaries."""

    def __init__(self, *args: Any, lazy_commands: Mapping[str, str] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(lazy_commands or {}, self.commands)


# errors that more space or other permissions cure (the rest point at verify)
_RESOURCE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES,
                              errno.EPERM, errno.EFBIG, errno.EMFILE, errno.ENFILE})


class AuditGroup(LazyGroup):
    """Turns an operating-system error no command anticipated (disk full, read-only file
    system, permission denied) into a clear message and exit code 2 instead of a traceback.
    Store writes are atomic, so whatever the command had not committed is simply not there."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as exc:
            where = f" ({exc.filename})" if exc.filename else ""
            if exc.strerror is None:  # e.g. Arrow's, whose text spans lines
                exc.strerror = " ".join(str(exc).split())[:300]
            if exc.errno in _RESOURCE_ERRNOS:
                raise InputProblem(
                    f"{exc.strerror or exc}{where}: the command stopped and committed nothing "
                    f"partial; {next_step_for(exc)}, then run it again"
                ) from None
            # not space or permissions: a file the store lists is gone or unreadable, or
            # the input is; verify names every damaged store file
            also = ("" if exc.errno is None else
                    "; if the file belongs to the store, run `poker-audit verify`")
            raise InputProblem(
                f"{exc.strerror or exc}{where}: the command stopped and committed nothing "
                f"partial; {next_step_for(exc)}{also}"
            ) from None


def next_step_for(exc: OSError) -> str:
    """What to do about an operating-system error: the advice that fits its cause. One
    without an errno is a decoder's (Arrow's "ZSTD decompression failed", "Corrupt snappy
    compressed data"): bytes of a file that changed, never a disk or permission matter."""
    if exc.errno is None:
        return ("a file's bytes do not decode: run `poker-audit verify`, which names each "
                "damaged store file")
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "free disk space"
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "fix permissions or choose a writable location"
    if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG):
        return "check the path"
    if exc.errno == errno.EFBIG:
        return "free disk space or raise the file size limit"
    if exc.errno in (errno.EMFILE, errno.ENFILE):
        return "raise the open-file limit (ulimit -n)"
    return "fix the cause"


@click.group(cls=AuditGroup, context_settings=CONTEXT_SETTINGS, lazy_commands=COMMANDS)
@click.version_option(__version__, prog_name="poker-audit")
def main() -> None:
    """Audit poker hand histories: store hands as append-only events, replay them under the
    rulebook, and report what went wrong."""


if __name__ == "__main__":  # pragma: no cover
    main()
