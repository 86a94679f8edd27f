"""The layer rule holds: the import contracts in .importlinter (as `make lint` checks them),
the CLI loads no development tool (audit.devtools is named by string only), and the store
loads no importer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def loaded_by(module: str) -> list[str]:
    """The audit modules a fresh interpreter holds after importing `module`."""
    code = (f"import json, sys; import {module}; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('audit.'))))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=300, check=True)
    return json.loads(result.stdout)


def test_import_contracts_are_kept():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run([str(lint_imports), "--no-cache"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_cli_loads_no_devtools_module():
    loaded = loaded_by("audit.cli.main")
    assert "audit.cli.main" in loaded
    assert [m for m in loaded if m.startswith("audit.devtools")] == []


def test_the_store_loads_no_importer():
    loaded = loaded_by("audit.store.dataset")
    assert "audit.store.dataset" in loaded
    assert [m for m in loaded if m.startswith("audit.importers")] == []
