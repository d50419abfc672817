"""Rule options and the named profiles of ``shared/rules.md``.

A ``Rules`` value holds every option resolved to a concrete value. It is made
from a rules string, a profile name followed by ``;``-separated overrides::

    Rules.parse("ffb-coinche; undertrump=must; surcoinche_factor=3")

Three defaults depend on the game (``failure_base``, ``rounding``, ``target``);
a profile stores only the options that differ from the defaults, so
``ffb-coinche; game=classic`` gets the classic values of those three (rules.md §9.1).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping


class RulesError(ValueError):
    """An unknown profile, option or value in a rules string."""


# Choices of each named option, the first being the default unless DEFAULTS says otherwise.
CHOICES: dict[str, tuple[str, ...]] = {
    "game": ("classic", "coinche"),
    "direction": ("ccw", "cw"),
    "first_speaker": ("dealer_next", "dealer"),
    "first_leader": ("dealer_next", "dealer"),
    "undertrump": ("must", "may_discard"),
    "meld_compare": ("best_single", "team_sum"),
    "meld_tie": ("none", "first"),
    "ta_values": ("pagat", "ffb2015", "raw", "raw_scaled"),
    "capot_score": ("der100", "flat250"),
    "tie": ("litige", "made", "failed"),
    "rounding": ("none", "nearest10_5up", "nearest10_5down"),
    "bid_values": ("multiples", "any_step"),
    "multiplier_scope": ("whole", "contract_only", "base_and_contract"),
}
# Integer options limited to a few values.
INT_CHOICES: dict[str, tuple[int, ...]] = {"carre_minor": (100, 50), "sa_ace": (19, 11)}
# Defaults that depend on the game: (classic, coinche).
GAME_DEFAULTS: dict[str, tuple[Any, Any]] = {
    "failure_base": (162, 160),
    "rounding": ("none", "nearest10_5up"),
    "target": (1000, 2000),
}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of rules.md, resolved. Build it with ``Rules.parse`` or ``Rules.make``."""

    game: str = "classic"
    # seats and turn order (§2)
    direction: str = "ccw"
    first_speaker: str = "dealer_next"
    first_leader: str = "dealer_next"
    # classic taking (§2)
    round2_same_suit: bool = False
    round2_sa_ta: bool = False
    jack_forces_dealer: bool = False
    # legal plays (§3)
    undertrump: str = "must"
    partner_exemption: bool = True
    ta_must_beat: bool = True
    # card values (§1)
    sa_ta: bool = False
    sa_ace: int = 19
    ta_values: str = "pagat"
    capot_score: str = "der100"
    # announcements and belote (§5)
    melds: bool = False
    meld_compare: str = "best_single"
    meld_tie: str = "none"
    carre_minor: int = 100
    belote_must_announce: bool = True
    belote_kept_on_failure: bool = True
    melds_lost_on_failure: bool = True
    # auction (§6)
    bid_min: int = 80
    bid_max: int = 160
    bid_step: int = 10
    bid_values: str = "multiples"
    capot_value: int = 250
    generale: int = 0
    coinche_out_of_turn: bool = False
    surcoinche: bool = True
    decoincher: bool = False
    # scoring (§7)
    surcoinche_factor: int = 4
    tie: str = "litige"
    must_beat_defence: bool = True
    bid80_needs_82: bool = False
    multiplier_scope: str = "whole"
    failure_base: int = 162
    rounding: str = "none"
    target: int = 1000
    # where the value came from, for str() and messages
    profile: str = "ffb"
    overrides: tuple[tuple[str, str], ...] = ()

    # --- construction -----------------------------------------------------------

    @classmethod
    def make(cls, profile: str = "ffb", **overrides: Any) -> Rules:
        """A profile with overrides given as Python values: ``Rules.make("ffb", melds=True)``."""
        return cls.parse("; ".join([profile] + [f"{k}={_format_value(v)}" for k, v in overrides.items()]))

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Parse ``"profile; option=value; ..."``; the profile may be omitted (``ffb``)."""
        parts = [part.strip() for part in text.split(";")]
        parts = [part for part in parts if part]
        profile = "ffb"
        if parts and "=" not in parts[0]:
            profile = parts.pop(0).lower()
        if profile not in PROFILES:
            raise RulesError(f"unknown rules profile {profile!r}; valid profiles: {', '.join(PROFILES)}")
        overrides: list[tuple[str, str]] = []
        for part in parts:
            name, sep, value = part.partition("=")
            name, value = name.strip().lower(), value.strip()
            if not sep or not name or not value:
                raise RulesError(f"rules override {part!r} is not of the form option=value")
            overrides.append((name, value))
        options: dict[str, Any] = dict(PROFILES[profile])
        for name, value in overrides:
            options[name] = _convert(name, value)
        return cls._resolve(options, profile, tuple(overrides))

    @classmethod
    def _resolve(cls, options: Mapping[str, Any], profile: str, overrides: tuple[tuple[str, str], ...]) -> Rules:
        values = dict(options)
        game_index = CHOICES["game"].index(values.get("game", "classic"))
        for name, defaults in GAME_DEFAULTS.items():
            values.setdefault(name, defaults[game_index])
        rules = cls(**values, profile=profile, overrides=overrides)
        rules._check()
        return rules

    def _check(self) -> None:
        if self.bid_min <= 0 or self.bid_max < self.bid_min or self.bid_step <= 0:
            raise RulesError(
                f"bids need 0 < bid_min <= bid_max and bid_step > 0 "
                f"(got bid_min={self.bid_min}, bid_max={self.bid_max}, bid_step={self.bid_step})")
        if self.surcoinche_factor < 1 or self.failure_base < 0 or self.target <= 0 or self.generale < 0:
            raise RulesError("surcoinche_factor must be >= 1, failure_base and generale >= 0, target > 0")

    def replace(self, **changes: Any) -> Rules:
        """A copy with options changed (Python values), recorded as overrides."""
        overrides = dict(self.overrides)
        for name, value in changes.items():
            _convert(name, _format_value(value))
            overrides[name.lower()] = _format_value(value)
        return rules_from_text("; ".join([self.profile] + [f"{k}={v}" for k, v in overrides.items()]))

    # --- derived facts ----------------------------------------------------------

    @property
    def clockwise(self) -> bool:
        return self.direction == "cw"

    @property
    def is_coinche(self) -> bool:
        return self.game == "coinche"

    def options(self) -> dict[str, Any]:
        """Every option and its value, in declaration order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name in OPTION_NAMES}

    def __str__(self) -> str:
        return "; ".join([self.profile] + [f"{name}={value}" for name, value in self.overrides])


OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name not in ("profile", "overrides")
)
_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Rules)}

# Each profile stores only what differs from the defaults (rules.md §8, §9.1).
PROFILES: dict[str, dict[str, Any]] = {
    "ffb": {"game": "classic"},
    "ffb-annonces": {"game": "classic", "melds": True},
    "ffb-coinche": {"game": "coinche", "undertrump": "may_discard", "melds": True, "sa_ta": True,
                    "ta_values": "ffb2015"},
    "ffb-contree": {"game": "coinche", "undertrump": "may_discard", "belote_kept_on_failure": False,
                    "must_beat_defence": False},
    "pagat-coinche": {"game": "coinche", "melds": True, "sa_ta": True, "must_beat_defence": False,
                      "bid80_needs_82": True, "multiplier_scope": "contract_only", "generale": 500},
    "korean": {"game": "classic", "direction": "cw", "first_speaker": "dealer", "first_leader": "dealer",
               "melds": True, "meld_compare": "team_sum", "target": 500},
    "korean-coinche": {"game": "coinche", "direction": "cw", "first_speaker": "dealer",
                       "first_leader": "dealer", "melds": True, "meld_compare": "team_sum", "sa_ta": True,
                       "ta_must_beat": False, "must_beat_defence": False, "bid80_needs_82": True,
                       "failure_base": 162, "generale": 500, "decoincher": True, "rounding": "none"},
}


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _convert(name: str, text: str) -> Any:
    """Turn an override's text into the option's value, or raise naming what is valid."""
    if name not in OPTION_NAMES:
        raise RulesError(f"unknown rules option {name!r}; valid options: {', '.join(sorted(OPTION_NAMES))}")
    value = text.strip().lower()
    if name in CHOICES:
        if value not in CHOICES[name]:
            raise RulesError(f"invalid value {text!r} for {name}; valid values: {', '.join(CHOICES[name])}")
        return value
    default = _DEFAULTS[name]
    if isinstance(default, bool):
        if value not in ("true", "false"):
            raise RulesError(f"invalid value {text!r} for {name}; valid values: true, false")
        return value == "true"
    digits = value[1:] if value[:1] == "-" else value
    if not (digits.isascii() and digits.isdigit() and len(digits) < 7):  # int() would take any script's digits
        raise RulesError(f"invalid value {text!r} for {name}; expected a whole number (ASCII digits)")
    number = int(value)
    if name in INT_CHOICES and number not in INT_CHOICES[name]:
        valid = ", ".join(map(str, INT_CHOICES[name]))
        raise RulesError(f"invalid value {text!r} for {name}; valid values: {valid}")
    return number


def rules_for_variant(variant: str | None) -> Rules:
    """The default rules of a record's ``Variant`` tag (belote, coinche, contree)."""
    key = (variant or "belote").strip().lower()
    profile = {"belote": "ffb", "classic": "ffb", "coinche": "ffb-coinche", "contree": "ffb-contree",
               "contrée": "ffb-contree"}.get(key)
    if profile is None:
        raise RulesError(f"unknown variant {variant!r}; valid variants: belote, coinche, contree")
    return Rules.parse(profile)


# --- memoized: a file names the same few rules in every record ----------------------------------

_CACHE: dict[tuple[str, str], Rules] = {}
_NAMES: dict[int, tuple[Rules, str]] = {}


def rules_from_text(text: str) -> Rules:
    """``Rules.parse(text)``, remembered (a ``RulesError`` is raised again each time)."""
    key = ("rules", text)
    rules = _CACHE.get(key)
    if rules is None:
        rules = _CACHE[key] = Rules.parse(text)
    return rules


def rules_from_variant(variant: str | None) -> Rules:
    """``rules_for_variant(variant)``, remembered."""
    key = ("variant", variant or "")
    rules = _CACHE.get(key)
    if rules is None:
        rules = _CACHE[key] = rules_for_variant(variant)
    return rules


def rules_name(rules: Rules) -> str:
    """``str(rules)``, kept per Rules object (the same few serve a whole file)."""
    hit = _NAMES.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_NAMES) > 512:
            _NAMES.clear()
        hit = _NAMES[id(rules)] = (rules, str(rules))
    return hit[1]
