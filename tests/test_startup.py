"""Start-up cost (issue 20, item 5): the CLI imports a command's module only when that command runs
or its help is shown, so `poker-audit verify` and `poker-audit query` load no importer, replay,
simulator or collusion module. Measured in a fresh interpreter through sys.modules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from audit.cli.main import COMMANDS, main
from audit.store.dataset import Store
from tests.support.eventrows import many_hands, write_parquet

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("audit.importers", "audit.replay", "audit.sequence", "audit.simulate", "audit.collusion")


def run_fresh(*args: str) -> tuple[int, str, list[str]]:
    """Run `poker-audit ARGS` in a fresh interpreter: exit code, stdout and the audit modules
    it loaded."""
    code = (
        "import json, sys\n"
        "from audit.cli.main import main\n"
        "try:\n"
        f"    main({list(args)!r}, prog_name='poker-audit')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code or 0\n"
        "else:\n"
        "    code = 0\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'audit')\n"
        "print(json.dumps({'code': code, 'loaded': loaded}), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    outcome = json.loads(result.stderr.strip().splitlines()[-1])
    return outcome["code"], result.stdout, outcome["loaded"]


def heavy(loaded: list[str]) -> list[str]:
    return [m for m in loaded if m.startswith(HEAVY)]


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Store:
    tmp = tmp_path_factory.mktemp("startup")
    store = Store(tmp / "store")
    src = write_parquet(tmp / "a.parquet", many_hands("s", 2))
    assert CliRunner().invoke(main, ["ingest", str(src), "--store", str(store.root)]).exit_code == 0
    return store


def test_verify_loads_no_importer_replay_simulator_or_collusion(filled: Store) -> None:
    code, out, loaded = run_fresh("verify", "--store", str(filled.root))
    assert code == 0 and out.startswith("OK: 1 batches"), out
    assert "audit.cli.integrity" in loaded
    assert heavy(loaded) == []


def test_query_loads_no_importer_replay_simulator_or_collusion(filled: Store) -> None:
    code, out, loaded = run_fresh("query", "SELECT count(DISTINCT hand_id) AS n FROM events",
                                  "--store", str(filled.root), "--format", "csv")
    assert code == 0 and out == "n\n2\n", out
    assert "audit.cli.query" in loaded
    assert heavy(loaded) == []


def test_a_command_loads_only_its_own_module() -> None:
    _, _, loaded = run_fresh("verify", "-h")
    assert [m for m in loaded if m.startswith("audit.cli.")] == [
        "audit.cli.common", "audit.cli.integrity", "audit.cli.main", "audit.cli.output"]


def test_the_group_help_lists_every_command() -> None:
    code, out, _ = run_fresh("--help")
    assert code == 0
    listed = out.split("Commands:\n", 1)[1].split()
    assert [name for name in COMMANDS if name not in listed] == []


def test_every_lazy_command_is_the_command_of_that_name() -> None:
    assert list(COMMANDS) == sorted(COMMANDS)
    assert sorted(main.list_commands(click.Context(main))) == sorted(COMMANDS)
    for name in COMMANDS:
        command = main.get_command(click.Context(main), name)
        assert isinstance(command, click.Command) and command.name == name
        assert "-h" in command.context_settings["help_option_names"], name
