"""Issue 23: `--profile` takes a profile TOML file, an overlay given alone gets a plain-words
error, and no profile error points at a source folder (schemas/profiles) that a pip install
does not have: it names the file it read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit.cli.main import main
from audit.rules.profiles import load_profile
from audit.simulate.play.sim import simulate


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("profile") / "store"
    simulate(out, hands=40, seed=3, tables=2)
    return out


def _audit(store: Path, profile: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["audit", "--store", str(store), "--profile", profile])
    return result.exit_code, result.stderr


def test_a_house_profile_file_is_audited_by(store: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: "unknown rule profile './house.toml'", exit 2.
    (tmp_path / "house.toml").write_text(
        'name = "house"\nversion = 3\ndescription = "Our room: Montana, min raise off"\n'
        'inherits = "montana"\n\n[rules]\ndisabled = ["BET-NL-MIN-RAISE"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, stderr = _audit(store, "house.toml+tournament")
    assert code in (0, 1), stderr
    runs = CliRunner().invoke(main, ["query", "SELECT profile FROM runs", "--store",
                                     str(store), "--format", "csv"])
    assert f"{tmp_path / 'house.toml'}@3+tournament@1" in runs.stdout  # the run's label
    profile = load_profile(str(tmp_path / "house.toml"), ("tournament",))
    assert "BET-NL-MIN-RAISE" in profile.disabled_rules and profile.version == 3


def test_an_overlay_given_alone_is_a_plain_error(store: Path) -> None:
    # Before: "unknown rule profile ''; available profiles: ..."
    code, stderr = _audit(store, "+tournament")
    assert code == 2
    assert "an overlay only changes a base profile" in stderr
    assert "--profile montana+tournament" in stderr and "Traceback" not in stderr
    code, stderr = _audit(store, "tournament")
    assert code == 2 and "is an overlay: it changes a base profile" in stderr
    assert "montana+tournament" in stderr and "overlays=" not in stderr
    code, stderr = _audit(store, "montana+")
    assert code == 2 and "nothing between '+' signs" in stderr


@pytest.mark.parametrize(("profile", "says"), [
    ("nope", "unknown rule profile 'nope'"),
    ("montana+uspa-2004", "is a base profile, not an overlay"),
    ("missing.toml", "cannot be read"),
])
def test_profile_errors_name_files_that_exist(store: Path, profile: str, says: str,
                                              tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Before: "see schemas/profiles/" and "(schemas/profiles/uspa-2004.toml)": a folder of the
    # source checkout, not there after `pip install`.
    monkeypatch.chdir(tmp_path)
    code, stderr = _audit(store, profile)
    assert code == 2 and says in stderr
    assert "schemas/profiles/" not in stderr.replace(str(_ours()), "<ours>")
    if profile != "missing.toml":
        assert str(_ours()) in stderr and _ours().is_dir()


def test_a_bad_profile_file_says_which_file_and_what(tmp_path: Path) -> None:
    bad = tmp_path / "room.toml"
    bad.write_text('name = "other"\nversion = 1\ndescription = "x"\ninherits = "montana"\n',
                   encoding="utf-8")
    result = CliRunner().invoke(main, ["audit", "--store", str(tmp_path / "s"),
                                       "--profile", str(bad)])
    del result  # no store there: the store error comes first; the library says the rest
    with pytest.raises(Exception, match=r"rule profile file .*room\.toml: name = 'other' must "
                                        r"match the file name \('room'\)"):
        load_profile(str(bad))


def _ours() -> Path:
    from audit.schema import schemas_dir

    return schemas_dir() / "profiles"


def test_a_profile_file_under_a_path_with_plus_and_at_signs(tmp_path: Path) -> None:
    # Before: "/x/a+b/house.toml" was read as base "/x/a" and overlay "b/house.toml" ("cannot
    # be read"), and the report's timelines of a run under "/x/y@z/house.toml" read the base as
    # "/x/y" ("timeline unavailable").
    folder = tmp_path / "rules+2026" / "team@room"
    folder.mkdir(parents=True)
    house = folder / "house.toml"
    house.write_text('name = "house"\nversion = 2\ndescription = "Montana"\n'
                     'inherits = "montana"\n', encoding="utf-8")
    store = tmp_path / "store"
    simulate(store, hands=60, seed=5, tables=2, violations=0.3)
    code, stderr = _audit(store, f"{house}+tournament")
    assert code in (0, 1), stderr
    runs = CliRunner().invoke(main, ["query", "SELECT profile FROM runs", "--store",
                                     str(store), "--format", "csv"])
    assert f"{house}@2+tournament@1" in runs.stdout
    report = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", "--store", str(store), "--out", str(report)])
    assert result.exit_code in (0, 1), result.stderr
    html = report.read_text(encoding="utf-8")
    timelines = re.findall(r'<pre class="timeline">(.*?)</pre>', html, re.DOTALL)
    assert timelines  # the worst hands are shown, each replayed under the run's profile
    assert not any("timeline unavailable" in t for t in timelines)
