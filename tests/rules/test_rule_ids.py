"""Rule ids as named constants: one per catalogued or registered id, named mechanically."""

from __future__ import annotations

import importlib
from collections import Counter

from audit.rules import ids
from audit.rules.catalog import CATALOG
from audit.rules.registry import RULES

FAMILIES = ("deal", "blinds", "betting", "showdown", "tournament", "evaluation", "own",
            "studdraw", "collusion", "live", "sequence", "remaining")


def test_every_rule_id_has_its_constant() -> None:
    every = set(CATALOG) | set(RULES)
    named = {getattr(ids, name): name for name in ids.__all__}
    assert set(named) == every
    assert len(named) == len(ids.__all__)
    for rule_id, name in named.items():  # the naming rule in audit/rules/ids.py
        plain = rule_id.upper().replace("-", "_")
        assert name in (plain, "RULE_" + plain)


def test_each_constant_is_exported_by_exactly_one_family() -> None:
    counts = Counter(name for family in FAMILIES
                     for name in importlib.import_module(f"audit.rules.catalog.{family}").__all__)
    assert set(counts) == set(ids.__all__)
    assert {n for n, k in counts.items() if k > 1} == set()
