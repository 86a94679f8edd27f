"""What every command module of the CLI shares (audit/cli/*.py): the store and format
options, opening a store, library errors turned into a one-line message with exit code 2, and
the click parameter types. Imports no command module, so any of them can import it."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from audit.cli.output import OutputFormat
from audit.errors import AuditError
from audit.store.dataset import Store, default_store_path

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


class InputProblem(click.ClickException):
    """A user mistake or unreadable input: message on stderr, exit code 2, no traceback."""

    exit_code = 2


@contextmanager
def user_errors() -> Iterator[None]:
    try:
        yield
    except AuditError as exc:
        problem = InputProblem(str(exc))
        # a tampered or damaged audit run flags the store (exit 1), as verify does
        problem.exit_code = getattr(exc, "exit_code", InputProblem.exit_code)
        raise problem from None


def store_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--store",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Store directory [default: $POKER_AUDIT_STORE, else ./audit-store].",
    )(f)


def format_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--format",
        "fmt",
        type=click.Choice([f.value for f in OutputFormat]),
        default="table",
        show_default=True,
        help="How to print rows.",
    )(f)


def open_store(path: Path | None, *, must_exist: bool = True) -> Store:
    store = Store(path or default_store_path())
    if must_exist and not store.exists():
        raise InputProblem(
            f"no store at {store.root} (no manifest.jsonl); create one with "
            f'"poker-audit ingest FILE --store {store.root}"'
        )
    return store


@contextmanager
def progress_bar(length: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr when stderr is a terminal (its `update`), else None: progress
    never reaches a pipe or a log file."""
    if not sys.stderr.isatty() or length <= 0:
        yield None
        return
    with click.progressbar(length=length, label=label, file=sys.stderr) as bar:
        yield bar.update


def err(message: str) -> None:
    click.echo(message, err=True)


class Share(click.FloatRange):
    """A FloatRange that also refuses nan (click's range check lets it through, since every
    comparison with nan is false) and inf."""

    name = "share"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a number in {self._describe_range()}", param, ctx)
        return number
