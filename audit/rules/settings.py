"""The rule-profile parameters the replay reads, resolved once per profile."""

from __future__ import annotations

import json
from typing import Any

from audit.rules.profiles import DEFAULT_PROFILE, load_profile

# Montana (000) values: the recommended fallback when a seed is silent (RULEBOOK §3). They are
# read from schemas/profiles/montana.toml, the one place the values live.
DEFAULTS: dict[str, Any] = dict(load_profile(DEFAULT_PROFILE).params)
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class Settings:
    """Plain attributes for the hot loop; built from a Profile (or None = Montana defaults)."""

    __slots__ = ("label", "cap_multi", "cap_headsup", "cap_headsup_tourn", "fold_uncaps",
                 "allin_aggregate", "allin_full_level", "allin_half_level", "nl_min_house",
                 "nl_reopen_aggregate",
                 "straddle_bigbet",
                 "straddle_limit", "pl_sb_as_bb", "pl_sb_as_bb_tourn", "oot",
                 "oddchip_button", "min_bet_amount", "rake_allowed", "rake_percent", "rake_cap",
                 "rake_implied_max_percent", "button_method", "hand_cap",
                 "allin_protection",
                 "tournament",
                 "severity", "disabled", "profile", "values")

    def __init__(self, profile: Any = None, overrides: dict[str, Any] | None = None) -> None:
        values = dict(DEFAULTS)
        if profile is not None:
            for key in DEFAULTS:
                try:
                    values[key] = profile[key]
                except (KeyError, TypeError):
                    pass
        if overrides:
            values.update({k: v for k, v in overrides.items() if k in DEFAULTS})
        self.values = values
        self.profile = profile
        self.label = str(getattr(profile, "label", "default"))
        self.cap_multi = int(values["cap.multi_round"])
        self.cap_headsup = bool(values["cap.headsup"])
        self.cap_headsup_tourn = bool(values["cap.headsup_tournament"])
        self.fold_uncaps = bool(values["cap.fold_uncaps"])
        self.allin_aggregate = values["allin.limit"] == "half_bet_aggregate"
        self.allin_full_level = bool(values["allin.limit_full_level"])
        # fixed limit: an all-in of half a bet or more makes a new full level (the book); not
        # under full_bet_levels, where the next raise completes it to the next full level
        self.allin_half_level = values["allin.limit"] != "full_bet_levels"
        self.nl_min_house = values["nl.min_bet"] == "house"
        self.min_bet_amount = int(values["nl.min_bet_amount"] or 0)
        self.hand_cap = int(values["stakes.hand_cap"] or 0)  # a capped table (0 = none)
        # an online room's disconnection protection: an `all_in_protection` annotation keeps
        # the player in the pot for what he has put in, his chips behind left out of play
        self.allin_protection = bool(values["allin.disconnect_protection"])
        self.nl_reopen_aggregate = values["nl.reopen"] == "aggregate"
        self.straddle_bigbet = bool(values["straddle.bigbet"])
        self.straddle_limit = bool(values["straddle.limit"])
        self.pl_sb_as_bb = bool(values["pl.sb_as_bb"])
        self.pl_sb_as_bb_tourn = bool(values["pl.sb_as_bb_tournament"])
        self.oot = str(values["oot"])
        self.oddchip_button = values["oddchip.button"] != "divided_equally"
        self.rake_allowed = bool(values["rake.allowed"])
        self.rake_percent = int(values["rake.percent"] or 0)
        self.rake_cap = int(values["rake.cap"] or 0)
        self.rake_implied_max_percent = int(values["rake.implied_max_percent"])
        self.button_method = str(values["button.method"])  # moving | dead | either (P17)
        self.tournament = bool(values["tournament"])
        self.severity: dict[str, str] = dict(getattr(profile, "severity_overrides", None) or {})
        self.disabled: frozenset[str] = frozenset(getattr(profile, "disabled_rules", None) or ())

    def with_house(self, house_overrides: str | None) -> Settings:
        """These settings with a hand's `game.house_overrides` JSON applied (cheap when absent).
        Overrides the replay cannot use (not JSON, not an object, a value of the wrong type or
        beyond 64 bits) leave the profile's values: a hostile hand must not stop the audit."""
        if not house_overrides:
            return self
        try:
            extra = json.loads(house_overrides)
        except (ValueError, RecursionError):  # not JSON, 4,300+ digits, nested 1,000 deep
            return self
        if not isinstance(extra, dict):
            return self
        known = [v for k, v in extra.items() if k in DEFAULTS]
        if any(type(v) is int and not INT64_MIN <= v <= INT64_MAX for v in known):
            return self  # the compiled replay's int64 columns cannot hold it
        try:
            house = Settings(self.profile, {**self.values, **extra})
        except (ValueError, TypeError, OverflowError):  # e.g. "rake.cap": "x" or NaN
            return self  # as for overrides that are not JSON: the profile's own values
        house.label = self.label + "+house"  # as Profile.label names a profile with overrides
        return house


def as_settings(profile: Any) -> Settings:
    """A Settings from a Profile, a Settings, or None."""
    if isinstance(profile, Settings):
        return profile
    return Settings(profile)
