"""Rule profiles (schemas/profiles/*.toml): loading, inheritance, overlays, §3 differences."""

from __future__ import annotations

import tomllib
from types import MappingProxyType

import pytest

from audit.errors import AuditInputError
from audit.rules.ids import BET_CAP_TOURNAMENT, HOUSE_RAKE, TURN_OOT_CALL
from audit.rules.profiles import (
    CORE_PARAMS,
    DEFAULT_PROFILE,
    PARAM_CHOICES,
    Profile,
    available_profiles,
    load_profile,
    with_overrides,
)
from audit.rules.registry import RULES, Severity
from audit.schema import schemas_dir

PROFILES_DIR = schemas_dir() / "profiles"
BASE_PROFILES = ("montana", "uspa-2004", "private", "rr-fragment", "rrv11-online")
OVERLAYS = ("tournament", "ca-lowball")
# the house rules of the rooms whose logs we read (issue 21): a room's own play, not a rulebook
SITE_PROFILES = ("pokerstars", "fulltilt", "partypoker", "ipoker", "ggpoker", "winamax",
                 "pacific", "winning", "bovada", "merge")


def _toml(name: str) -> dict:
    return tomllib.loads((PROFILES_DIR / f"{name}.toml").read_text(encoding="utf-8"))


def test_every_profile_of_rulebook_section_3_exists():
    assert set(available_profiles()) == set(BASE_PROFILES) | set(OVERLAYS) | set(SITE_PROFILES)
    assert DEFAULT_PROFILE == "montana"


@pytest.mark.parametrize("name", BASE_PROFILES + SITE_PROFILES)
def test_every_base_profile_loads_with_every_param(name):
    profile = load_profile(name)
    assert profile.name == name
    assert profile.version >= 1
    assert profile.description
    assert set(profile.params) == set(load_profile("montana").params)
    for key, value in profile.params.items():
        assert type(value) in (bool, int, str), key
        if key in PARAM_CHOICES:
            assert value in PARAM_CHOICES[key], key


@pytest.mark.parametrize("name", OVERLAYS)
def test_every_overlay_loads_on_every_base(name):
    for base in BASE_PROFILES:
        assert load_profile(base, [name]).overlays == (name,)


def test_montana_lists_every_param_and_others_inherit_it():
    montana = _toml("montana")
    assert "inherits" not in montana
    assert CORE_PARAMS <= set(montana["params"])
    for name in available_profiles():
        if name == "montana":
            continue
        doc = _toml(name)
        assert doc["inherits"] == "montana", name
        assert set(doc["params"]) <= set(montana["params"]), name


@pytest.mark.parametrize("name", sorted(set(BASE_PROFILES) - {"montana"}))
def test_profile_inherits_montana_where_its_seed_is_silent(name):
    own = _toml(name)["params"]
    montana = load_profile("montana")
    profile = load_profile(name)
    for key, value in profile.params.items():
        assert value == (own[key] if key in own else montana[key]), key


def test_non_montana_files_list_only_what_differs():
    montana = _toml("montana")["params"]
    for name in available_profiles():
        if name != "montana":
            for key, value in _toml(name)["params"].items():
                assert value != montana[key], f"{name}: {key} repeats montana's value"


def test_section_3_differences():
    montana = load_profile("montana")
    # P1/P2: limit caps.
    assert montana["cap.multi_round"] == 3
    assert montana["cap.two_round"] == 4
    assert load_profile("private")["cap.two_round"] == 3
    assert load_profile("montana", ["ca-lowball"])["cap.two_round"] == 6
    # P4/P5/P6: heads-up caps.
    assert montana["cap.headsup"] is True
    assert montana["cap.headsup_tournament"] is False
    assert load_profile("uspa-2004")["cap.headsup_tournament"] is True
    assert montana["cap.fold_uncaps"] is False
    # P7: limit short all-ins.
    assert montana["allin.limit"] == "half_bet_aggregate"
    assert load_profile("uspa-2004")["allin.limit"] == "half_bet"
    # P10, P13, P14: big-bet differences.
    assert montana["nl.multimotion"] == "cash_only"
    assert load_profile("uspa-2004")["nl.multimotion"] == "always"
    assert montana["pl.sb_as_bb"] is True
    assert montana["pl.sb_as_bb_tournament"] is False
    assert load_profile("rrv11-online")["pl.sb_as_bb"] is False
    assert montana["pl.big_chip"] == "pot_unless_facing_bet"
    assert load_profile("uspa-2004")["pl.big_chip"] == "pot"
    # P15/P16: out of turn and verbal.
    assert [load_profile(n)["oot"] for n in ("montana", "uspa-2004", "private")] == [
        "montana",
        "uspa",
        "etiquette",
    ]
    assert load_profile("rr-fragment")["verbal"] == "bigbet_corrected"
    # P17/P18: button and heads-up blinds.
    assert montana["button.method"] == "either"
    assert load_profile("rrv11-online")["button.method"] == "moving"
    assert montana["blinds.headsup"] == "sb_on_button_last_bb_gets_button"
    assert load_profile("uspa-2004")["blinds.headsup"] == "sb_on_button"
    # P21/P22/P23: side pots and odd chips.
    assert montana["sidepot.order"] == "most_chips_first"
    assert load_profile("rrv11-online")["sidepot.order"] == "last_created_first"
    assert montana["oddchip.button"] == "first_left_of_button"
    assert load_profile("rrv11-online")["oddchip.button"] == "divided_equally"
    assert montana["oddchip.hilo"] == "high"
    # P32: rake.
    assert montana["rake.allowed"] is True
    assert load_profile("private")["rake.allowed"] is False
    # P41: right to see.
    assert load_profile("uspa-2004")["showdown.right_to_see"] == "called"


def test_tournament_overlay():
    profile = load_profile("montana", ["tournament"])
    assert profile["tournament"] is True
    assert profile.is_tournament
    assert not load_profile("montana").is_tournament
    assert profile["pl.sb_as_bb_tournament"] is False
    assert profile["cap.headsup_tournament"] is False
    # The overlay sets only its own keys: a base profile's answers survive it.
    assert load_profile("uspa-2004", ["tournament"])["pl.sb_as_bb_tournament"] is True
    assert load_profile("uspa-2004", ["tournament"])["allin.limit"] == "half_bet"


def test_overlays_apply_in_order_and_stack():
    profile = load_profile("private", ["tournament", "ca-lowball"])
    assert profile["cap.two_round"] == 6
    assert profile["tournament"] is True
    assert profile["rake.allowed"] is False


def test_labels():
    assert load_profile("montana").label == "montana@1"
    assert load_profile("montana", ["tournament"]).label == "montana@1+tournament@1"
    assert (
        load_profile("uspa-2004", ("tournament", "ca-lowball")).label
        == "uspa-2004@1+tournament@1+ca-lowball@1"
    )
    assert load_profile("montana", "tournament").label == "montana@1+tournament@1"


def test_unknown_profile_names_the_available_ones():
    with pytest.raises(AuditInputError, match="uspa-2004") as info:
        load_profile("robert")
    assert "montana" in str(info.value)


def test_overlay_and_base_cannot_swap_places():
    with pytest.raises(AuditInputError, match="overlay"):
        load_profile("tournament")
    with pytest.raises(AuditInputError, match="not an overlay"):
        load_profile("montana", ["private"])


def test_unknown_param_raises_keyerror_listing_known_keys():
    with pytest.raises(KeyError, match="cap.multi_round"):
        load_profile("montana")["cap.multi_raund"]


def test_profiles_are_immutable_hashable_and_cached():
    profile = load_profile("montana")
    assert profile is load_profile("montana")
    assert isinstance(profile.params, MappingProxyType)
    with pytest.raises(TypeError):
        profile.params["cap.two_round"] = 9  # type: ignore[index]
    with pytest.raises(AttributeError):
        profile.version = 2  # type: ignore[misc]
    assert len({profile, load_profile("montana"), load_profile("private")}) == 2


def test_severity_overrides_and_disabled_rules():
    private = load_profile("private")
    assert private.severity_of(HOUSE_RAKE) is Severity.CRITICAL
    assert load_profile("montana").severity_of(HOUSE_RAKE) == RULES[HOUSE_RAKE].severity
    assert not private.rule_enabled(TURN_OOT_CALL)
    assert load_profile("montana").rule_enabled(TURN_OOT_CALL)
    assert not load_profile("uspa-2004").rule_enabled(BET_CAP_TOURNAMENT)
    for name in available_profiles():
        doc = _toml(name)
        for rule_id in (*doc.get("severity", {}), *doc.get("rules", {}).get("disabled", [])):
            assert rule_id in RULES, f"{name}: unknown rule id {rule_id}"


def test_house_overrides_accept_known_keys_only():
    montana = load_profile("montana")
    house = with_overrides(montana, {"rake.percent": 5, "rake.cap": 300})
    assert (house["rake.percent"], house["rake.cap"]) == (5, 300)
    assert montana["rake.percent"] == 0  # the loaded profile is untouched
    assert house.label == "montana@1+house"
    assert with_overrides(montana, '{"nl.min_bet": "house", "nl.min_bet_amount": 400}')[
        "nl.min_bet_amount"
    ] == 400
    assert with_overrides(montana, {}) is montana
    assert with_overrides(montana, None) is montana
    with pytest.raises(AuditInputError, match="rake.percentage"):
        with_overrides(montana, {"rake.percentage": 5})
    with pytest.raises(AuditInputError, match="float"):
        with_overrides(montana, '{"rake.cap": 2.5}')
    with pytest.raises(AuditInputError, match="type"):
        with_overrides(montana, {"cap.headsup": 1})
    with pytest.raises(AuditInputError, match="choose one of"):
        with_overrides(montana, {"button.method": "floating"})


def test_no_float_anywhere_in_a_profile_file():
    def walk(value: object, where: str) -> None:
        assert not isinstance(value, float), f"{where} is a float"
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, f"{where}.{key}")
        elif isinstance(value, list):
            for i, inner in enumerate(value):
                walk(inner, f"{where}[{i}]")

    for path in sorted(PROFILES_DIR.glob("*.toml")):
        walk(tomllib.loads(path.read_text(encoding="utf-8")), path.name)


def test_every_param_line_carries_its_citation_comment():
    checked = 0
    for path in sorted(PROFILES_DIR.glob("*.toml")):
        in_params = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("["):
                in_params = line.strip() == "[params]"
            elif in_params and line.startswith('"'):
                assert "#" in line, f"{path.name}: {line!r} has no §3 row / citation comment"
                checked += 1
    # montana lists every param (test_montana_lists_every_param_and_others_inherit_it)
    assert checked >= len(load_profile("montana").params)


def test_profile_dataclass_is_frozen_with_slots():
    assert "__slots__" in Profile.__dict__
