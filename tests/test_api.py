"""The library API (audit/__init__.py): every exported name resolves and says what it is,
`import audit` loads no other audit module, and the README's Python examples use only the API."""

from __future__ import annotations

import ast
import inspect
import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import audit

ROOT = Path(__file__).resolve().parents[1]


def loaded_after(code: str) -> list[str]:
    """The audit modules a fresh interpreter holds after running `code`."""
    probe = (f"{code}\nimport json, sys\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'audit')))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                            text=True, timeout=300, check=True)
    return json.loads(result.stdout.splitlines()[-1])


@pytest.mark.parametrize("name", audit.__all__)
def test_every_api_name_resolves_and_has_a_docstring(name: str) -> None:
    value = getattr(audit, name)
    doc = inspect.getdoc(value) or ""
    assert doc.strip(), f"audit.{name} has no docstring"
    assert not doc.startswith(f"{getattr(value, '__name__', name)}("), (
        f"audit.{name}: the docstring is the generated signature, not a description")


def test_all_lists_exactly_the_lazy_names() -> None:
    assert audit.__all__ == list(audit._API)
    assert len(set(audit.__all__)) == len(audit.__all__)
    assert set(audit.__all__) <= set(dir(audit))


def test_no_api_name_is_a_subpackage() -> None:
    # `import audit.ingest.pipeline` sets audit.ingest to the package: a function of that name
    # would be replaced by the package (hence ingest_files and simulate_hands)
    modules = {m.name for m in pkgutil.iter_modules(audit.__path__)}
    assert not set(audit.__all__) & modules


def test_the_api_names_the_functions_the_cli_runs() -> None:
    from audit.ingest.pipeline import ingest
    from audit.run.runner import audit_store
    from audit.simulate import simulate
    from audit.store.dataset import Store

    assert audit.ingest_files is ingest
    assert audit.simulate_hands is simulate
    assert audit.audit_store is audit_store
    assert audit.Store is Store


def test_an_unknown_name_is_an_attribute_error_and_subpackages_still_import() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        audit.nothing_here  # noqa: B018
    from audit import store

    assert store.__name__ == "audit.store"


def test_import_audit_loads_no_other_audit_module() -> None:
    assert loaded_after("import audit") == ["audit"]


def test_import_audit_loads_no_data_library() -> None:
    code = ("import sys, audit\n"
            "heavy = [m for m in ('pyarrow', 'duckdb', 'polars', 'numba', 'numpy', 'click') "
            "if m in sys.modules]\n"
            "assert heavy == [], heavy")
    loaded_after(code)


def test_opening_a_store_loads_no_importer_replay_or_simulator() -> None:
    loaded = loaded_after("import audit\naudit.Store('nowhere')")
    assert "audit.store.dataset" in loaded
    assert [m for m in loaded if m.startswith(("audit.importers", "audit.replay",
                                               "audit.sequence", "audit.simulate",
                                               "audit.collusion"))] == []


def _readme_python() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


def test_the_readme_has_a_library_example() -> None:
    assert _readme_python()


@pytest.mark.parametrize("block", range(len(_readme_python())))
def test_readme_examples_use_only_the_api(block: int) -> None:
    tree = ast.parse(_readme_python()[block])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert all(a.name == "audit" or not a.name.startswith("audit") for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("audit"):
            assert node.module == "audit"
            assert {a.name for a in node.names} <= set(audit.__all__)
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == "audit"):
            assert node.attr in audit.__all__, f"audit.{node.attr} is not in the API"
