"""Click parameter types shared by the command modules (audit/cli.py, */cli.py)."""

from __future__ import annotations

import math
from typing import Any

import click


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
