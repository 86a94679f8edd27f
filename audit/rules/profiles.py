"""Rule profiles: the versioned parameter sets of schemas/profiles/*.toml, one per rulebook.

A profile picks the rulebook's answer wherever the seeds differ (RULEBOOK.md §3: raise caps,
all-in reopening, straddles, pot-limit opening, out-of-turn binding, odd chips, rake…). Montana
is the default and lists every parameter; every other profile ``inherits`` it and lists only
what differs. Overlays (``tournament``, ``ca-lowball``) are applied on top of a base profile in
the order given. A hand's ``game.house_overrides`` can then change known parameters only.

Profiles are immutable and hashable, so replay can take one as an argument and cache on it;
every audit run records ``profile.label`` (e.g. ``montana@1+tournament@1``).

>>> load_profile("private")["cap.two_round"]
3
>>> load_profile("montana", ["tournament"]).label
'montana@1+tournament@1'
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType

from audit.errors import AuditInputError
from audit.rules.catalog import CATALOG
from audit.rules.registry import Severity
from audit.schema import schemas_dir

DEFAULT_PROFILE = "montana"
# The default of an audit: each hand judged by the house rules of the room it was played in
# (`room_profile`), Robert's Rules (DEFAULT_PROFILE) where we have none for that room.
AUTO_PROFILE = "auto"

# The rooms whose house rules are profiles (schemas/profiles/<room>.toml, issue 21), by the
# source prefix their importer gives hand ids. A hand names its room with a `room=` flag on
# `hand_started` (PokerStars-format text written by another room or a converter does), else
# by that prefix. Only these names choose a profile: a log cannot pick a rulebook for itself.
SITE_PROFILES: Mapping[str, str] = MappingProxyType(
    {"ps": "pokerstars", "ftp": "fulltilt", "party": "partypoker", "ipoker": "ipoker",
     "gg": "ggpoker", "wmx": "winamax", "888": "pacific", "wpn": "winning", "bov": "bovada",
     "merge": "merge"}
)
_SITE_NAMES = frozenset(SITE_PROFILES.values())

ParamValue = bool | int | str

# Closed vocabularies of the string-valued parameters (RULEBOOK §3 rows in brackets). Replay code
# matches on these values, so a typo in a profile file must fail at load, not silently never match.
PARAM_CHOICES: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        # P7; full_bet_levels (PokerStars): a short all-in never sets a new level, the next
        # raise goes to the last full level plus one bet
        "allin.limit": frozenset({"half_bet_aggregate", "half_bet", "full_bet_levels"}),
        "nl.min_bet": frozenset({"big_blind", "house"}),  # P8
        "nl.reopen": frozenset({"aggregate", "full_raise_only"}),  # P9
        "nl.multimotion": frozenset({"cash_only", "always", "single_motion"}),  # P10
        "nl.pot_word": frozenset({"raise", "pot_size"}),  # "pot" said at no limit (live layer)
        "pl.big_chip": frozenset({"pot_unless_facing_bet", "pot"}),  # P14
        "oot": frozenset({"montana", "uspa", "etiquette"}),  # P15
        "verbal": frozenset({"binds_overrides", "must_take", "bigbet_corrected"}),  # P16
        "button.method": frozenset({"moving", "dead", "either"}),  # P17
        # who may straddle: the player left of the big blind (or of the last straddle), or any
        "straddle.position": frozenset({"left_of_big_blind", "any"}),
        "blinds.headsup": frozenset({"sb_on_button_last_bb_gets_button", "sb_on_button"}),  # P18
        "misdeal.holdem_exposed": frozenset({"first_two_cards", "first_card"}),  # P35
        "sidepot.order": frozenset(
            {"last_created_first", "most_chips_first", "unspecified"}
        ),  # P21
        "oddchip.button": frozenset({"first_left_of_button", "divided_equally"}),  # P22
        "oddchip.hilo": frozenset({"high"}),  # P23
        "showdown.right_to_see": frozenset({"eligible", "called"}),  # P41
    }
)

# Parameters the replay codes against: the default profile must define every one of them.
CORE_PARAMS: frozenset[str] = frozenset(
    {
        *PARAM_CHOICES,
        "cap.multi_round",
        "cap.two_round",
        "cap.headsup",
        "cap.headsup_tournament",
        "cap.fold_uncaps",
        "nl.min_bet_amount",
        "stakes.hand_cap",
        "straddle.bigbet",
        "straddle.new_bring_in",
        "straddle.limit",
        "straddle.max",
        "straddle.multiple",
        "pl.sb_as_bb",
        "pl.sb_as_bb_tournament",
        "rake.allowed",
        "rake.percent",
        "rake.cap",
        "rake.implied_max_percent",
        "tournament",
        "stud.bringin_fold",  # P24
        "draw.max_at_once",  # DRAW-MAX-FOUR: 4 (the book), 5 (a whole draw at once, online)
        "a5.checkraise",  # A5-CHECKRAISE
        "allin.limit_full_level",  # P7: a half-bet all-in raises the level to the full bet
        "allin.disconnect_protection",  # a disconnected player stays in for what he put in
    }
)

_TOP_LEVEL_KEYS = frozenset(
    {"name", "version", "description", "inherits", "overlay", "params", "severity", "rules"}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile:
    """A resolved rule profile: the base rulebook, its overlays, and every parameter's value."""

    name: str
    version: int
    description: str
    params: Mapping[str, ParamValue]
    overlays: tuple[str, ...] = ()
    overlay_versions: tuple[int, ...] = ()
    severity_overrides: Mapping[str, Severity] = field(
        default_factory=lambda: MappingProxyType({})
    )
    disabled_rules: frozenset[str] = frozenset()
    house_overrides: Mapping[str, ParamValue] = field(
        default_factory=lambda: MappingProxyType({})
    )

    def __getitem__(self, key: str) -> ParamValue:
        try:
            return self.params[key]
        except KeyError:
            known = ", ".join(sorted(self.params))
            raise KeyError(f"unknown profile parameter {key!r}; known: {known}") from None

    def __hash__(self) -> int:
        # MappingProxyType is unhashable, so hash the resolved content instead.
        return hash(
            (
                self.label,
                frozenset(self.params.items()),
                frozenset(self.severity_overrides.items()),
                self.disabled_rules,
            )
        )

    @property
    def label(self) -> str:
        """What an audit run records: ``montana@1``, ``montana@1+tournament@1``, ``…+house``."""
        parts = [f"{self.name}@{self.version}"]
        parts += [f"{o}@{v}" for o, v in zip(self.overlays, self.overlay_versions, strict=True)]
        if self.house_overrides:
            parts.append("house")
        return "+".join(parts)

    @property
    def is_tournament(self) -> bool:
        return bool(self.params["tournament"])

    def rule_enabled(self, rule_id: str) -> bool:
        """False when this profile switches the rule off (``[rules] disabled``)."""
        return rule_id not in self.disabled_rules

    def severity_of(self, rule_id: str) -> Severity:
        """The profile's severity for a rule: its override, else the registry default."""
        override = self.severity_overrides.get(rule_id)
        return override if override is not None else CATALOG[rule_id].severity


@dataclass(frozen=True, slots=True, kw_only=True)
class _ProfileFile:
    """One parsed, validated schemas/profiles/<name>.toml before inheritance is resolved."""

    name: str
    version: int
    description: str
    inherits: str | None
    overlay: bool
    params: Mapping[str, ParamValue]
    severity: Mapping[str, Severity]
    disabled: frozenset[str]


def _profiles_dir() -> Path:
    return schemas_dir() / "profiles"


@cache
def available_profiles() -> tuple[str, ...]:
    """Names of every profile and overlay file in schemas/profiles/, sorted."""
    return tuple(sorted(p.stem for p in _profiles_dir().glob("*.toml")))


def is_profile_file(name: str) -> bool:
    """Whether a --profile value names a profile file (`house.toml`, `rules/house`) rather
    than one of ours."""
    return name.endswith(".toml") or "/" in name or os.sep in name


def _path_of(name: str) -> Path:
    return Path(name) if is_profile_file(name) else _profiles_dir() / f"{name}.toml"


def _where(name: str) -> str:
    if is_profile_file(name):
        return f"rule profile file {name}"
    return f"rule profile {name!r} ({_path_of(name)})"


def _fail(name: str, problem: str) -> AuditInputError:
    return AuditInputError(f"{_where(name)}: {problem}")


def _check_value(where: str, key: str, value: object, template: ParamValue | None) -> ParamValue:
    """A parameter value of the right type (and vocabulary); floats are refused outright."""
    problem = None
    if isinstance(value, float):
        problem = f"{key} = {value!r} is a float; money is integer minor units, counts are integers"
    elif not isinstance(value, bool | int | str):
        problem = f"{key} = {value!r}: only booleans, integers and strings are allowed"
    # bool is an int subclass, so compare exact types: `true` where an int is expected is an error.
    elif template is not None and type(value) is not type(template):
        problem = (
            f"{key} = {value!r} has type {type(value).__name__}; "
            f"{DEFAULT_PROFILE} has {template!r} of type {type(template).__name__}"
        )
    elif key in PARAM_CHOICES and value not in PARAM_CHOICES[key]:
        problem = f"{key} = {value!r}; choose one of {', '.join(sorted(PARAM_CHOICES[key]))}"
    if problem is not None:
        raise AuditInputError(f"{where}: {problem}")
    return value  # type: ignore[return-value]  # narrowed by the checks above


@cache
def _read_profile_file(name: str) -> _ProfileFile:
    """Parse and validate one profile file (cached: files are read once per process)."""
    own_file = is_profile_file(name)
    if not own_file and name not in available_profiles():
        bases = [n for n in available_profiles() if not _read_profile_file(n).overlay]
        overlays = [n for n in available_profiles() if _read_profile_file(n).overlay]
        raise AuditInputError(
            f"unknown rule profile {name!r}; available profiles: {', '.join(bases)} "
            f"(overlays: {', '.join(overlays)}); or give your own profile file, e.g. "
            f"--profile house.toml (ours are examples: {_profiles_dir()})"
        )
    path = _path_of(name)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise _fail(name, f"not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise _fail(name, "not UTF-8 text") from None
    except OSError as exc:
        raise _fail(name, f"cannot be read ({exc.strerror or exc})") from None
    stem = path.stem
    default = not own_file and name == DEFAULT_PROFILE

    unknown = set(doc) - _TOP_LEVEL_KEYS
    if unknown:
        raise _fail(name, f"unknown top-level keys {sorted(unknown)}")
    if doc.get("name") != stem:
        raise _fail(name, f"name = {doc.get('name')!r} must match the file name ({stem!r})")
    version = doc.get("version")
    if type(version) is not int or version < 1:
        raise _fail(name, f"version = {version!r} must be an integer >= 1")
    description = doc.get("description")
    if not isinstance(description, str) or not description:
        raise _fail(name, "description is missing")
    inherits = doc.get("inherits")
    if default:
        if inherits is not None:
            raise _fail(name, "the default profile inherits from nothing")
    elif not isinstance(inherits, str):
        raise _fail(name, f'inherits is missing (every profile but {DEFAULT_PROFILE} inherits)')
    overlay = doc.get("overlay", False)
    if not isinstance(overlay, bool):
        raise _fail(name, f"overlay = {overlay!r} must be true or false")

    raw_params = doc.get("params", {})
    if not isinstance(raw_params, dict):
        raise _fail(name, "[params] must be a table")
    if default:
        templates: Mapping[str, ParamValue] = {}
    else:
        templates = _read_profile_file(DEFAULT_PROFILE).params
        unknown = set(raw_params) - set(templates)
        if unknown:
            raise _fail(
                name,
                f"unknown parameters {sorted(unknown)}; every parameter must be listed in "
                f"{DEFAULT_PROFILE}.toml first",
            )
    params = {k: _check_value(_where(name), k, v, templates.get(k)) for k, v in raw_params.items()}
    if default:
        missing = CORE_PARAMS - set(params)
        if missing:
            raise _fail(name, f"the default profile lists every parameter; add {sorted(missing)}")

    raw_severity = doc.get("severity", {})
    if not isinstance(raw_severity, dict):
        raise _fail(name, "[severity] must be a table of rule id = severity")
    severity: dict[str, Severity] = {}
    for rule_id, level in raw_severity.items():
        if rule_id not in CATALOG:
            raise _fail(name, f"[severity] names unknown rule id {rule_id!r}")
        if level not in {s.value for s in Severity}:
            choices = ", ".join(s.value for s in Severity)
            raise _fail(name, f"[severity] {rule_id} = {level!r}; choose one of {choices}")
        severity[rule_id] = Severity(level)

    rules_table = doc.get("rules", {})
    if not isinstance(rules_table, dict) or set(rules_table) - {"disabled"}:
        raise _fail(name, "[rules] may hold only disabled = [rule ids]")
    disabled = rules_table.get("disabled", [])
    if not isinstance(disabled, list) or not all(isinstance(r, str) for r in disabled):
        raise _fail(name, "[rules] disabled must be a list of rule ids")
    unknown = set(disabled) - set(CATALOG)
    if unknown:
        raise _fail(name, f"[rules] disabled names unknown rule ids {sorted(unknown)}")

    return _ProfileFile(
        name=name,
        version=version,
        description=description,
        inherits=inherits,
        overlay=overlay,
        params=MappingProxyType(params),
        severity=MappingProxyType(severity),
        disabled=frozenset(disabled),
    )


def _resolve_base(
    name: str, seen: tuple[str, ...] = ()
) -> tuple[dict[str, ParamValue], dict[str, Severity], set[str]]:
    """Params, severity overrides and disabled rules of a base profile after inheritance."""
    if name in seen:
        raise _fail(name, f"inheritance cycle {' -> '.join((*seen, name))}")
    doc = _read_profile_file(name)
    if doc.inherits is None:
        return dict(doc.params), dict(doc.severity), set(doc.disabled)
    params, severity, disabled = _resolve_base(doc.inherits, (*seen, name))
    params.update(doc.params)
    severity.update(doc.severity)
    # A profile's disabled list is its own decision, so it replaces (not adds to) the parent's.
    return params, severity, set(doc.disabled)


@cache
def _load(name: str, overlays: tuple[str, ...]) -> Profile:
    base = _read_profile_file(name)
    if base.overlay:
        raise _fail(name, "is an overlay: it changes a base profile, so name one before it, "
                          f"e.g. {DEFAULT_PROFILE}+{name}")
    params, severity, disabled = _resolve_base(name)
    versions = []
    for overlay_name in overlays:
        overlay = _read_profile_file(overlay_name)
        if not overlay.overlay:
            raise _fail(overlay_name, "is a base profile, not an overlay (it has no "
                                      "overlay = true): give it alone, before any +")
        # Overlays set only their own keys, so the base profile's other answers survive.
        params.update(overlay.params)
        severity.update(overlay.severity)
        disabled |= overlay.disabled
        versions.append(overlay.version)
    return Profile(
        name=name,
        version=base.version,
        description=base.description,
        params=MappingProxyType(params),
        overlays=overlays,
        overlay_versions=tuple(versions),
        severity_overrides=MappingProxyType(severity),
        disabled_rules=frozenset(disabled),
    )


def load_profile(name: str = DEFAULT_PROFILE, overlays: Sequence[str] = ()) -> Profile:
    """The named profile with its inheritance resolved and the overlays applied in order.

    Raises AuditInputError for an unknown name (listing the available ones) or an invalid file.
    """
    if isinstance(overlays, str):  # a bare string would be split into letters
        overlays = (overlays,)
    return _load(name, tuple(overlays))


def room_of(hand_id: str | None, started_detail: str | None) -> str | None:
    """The room a hand was played in: its `room=` flag, else its hand id's source prefix.

    >>> room_of("ps:231645858339", None), room_of("ps:9", "room=pokermaster;refunds=implicit")
    ('pokerstars', 'pokermaster')
    """
    if started_detail and "room=" in started_detail:
        for part in started_detail.split(";"):
            key, _, value = part.partition("=")
            if key.strip() == "room":
                # a name, not text: letters, digits, '-' and '_' (it qualifies player ids)
                room = "".join(c for c in value.strip().lower() if c.isalnum() or c in "-_")
                return room or None
    prefix, sep, _ = (hand_id or "").partition(":")
    return SITE_PROFILES.get(prefix) if sep else None


def room_profile(room: str | None) -> str:
    """The profile that judges a room's hands under AUTO_PROFILE: its house rules when we
    have them, else DEFAULT_PROFILE.

    >>> room_profile("pokerstars"), room_profile("pokermaster"), room_profile("private")
    ('pokerstars', 'montana', 'montana')
    """
    return room if room in _SITE_NAMES else DEFAULT_PROFILE


@cache
def base_profiles() -> frozenset[str]:
    """The profiles a hand can be judged by on their own (every file but the overlays)."""
    return frozenset(n for n in available_profiles() if not _read_profile_file(n).overlay)


def house_rules(hand_id: str | None, started_detail: str | None,
                declared: str | None = None) -> str:
    """The profile an AUTO_PROFILE audit judges a hand by: the one its house declares
    (`game.profile`, when it names a profile we have), else its room's (`room_profile`).

    >>> house_rules("ps:1", None), house_rules("ps:1", None, "uspa-2004")
    ('pokerstars', 'uspa-2004')
    >>> house_rules("sim:1", None, "tournament"), house_rules("sim:1", None, "no-such")
    ('montana', 'montana')
    """
    if declared and declared in base_profiles():
        return declared
    return room_profile(room_of(hand_id, started_detail))


def _reject_float(text: str) -> object:
    raise AuditInputError(f"house overrides: {text} is a float; use integer minor units")


def with_overrides(profile: Profile, overrides: Mapping[str, object] | str | None) -> Profile:
    """The profile with a hand's house overrides (``game.house_overrides``) applied.

    ``overrides`` is a mapping or the JSON object text stored in the event log. Only known
    parameters are accepted, with the same type and vocabulary as in the profile files.

    >>> with_overrides(load_profile(), '{"rake.percent": 5, "rake.cap": 300}')["rake.cap"]
    300
    """
    if isinstance(overrides, str):
        try:
            overrides = json.loads(overrides, parse_float=_reject_float)
        except json.JSONDecodeError as exc:
            raise AuditInputError(f"house overrides are not valid JSON: {exc}") from None
        if not isinstance(overrides, dict):
            raise AuditInputError("house overrides must be a JSON object of parameter: value")
    if not overrides:
        return profile
    unknown = set(overrides) - set(profile.params)
    if unknown:
        raise AuditInputError(
            f"house overrides name unknown profile parameters {sorted(unknown)}; "
            f"known parameters: {', '.join(sorted(profile.params))}"
        )
    checked = {
        key: _check_value(f"house override for {profile.label}", key, value, profile.params[key])
        for key, value in overrides.items()
    }
    return Profile(
        name=profile.name,
        version=profile.version,
        description=profile.description,
        params=MappingProxyType({**profile.params, **checked}),
        overlays=profile.overlays,
        overlay_versions=profile.overlay_versions,
        severity_overrides=profile.severity_overrides,
        disabled_rules=profile.disabled_rules,
        house_overrides=MappingProxyType({**profile.house_overrides, **checked}),
    )
