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
    "first_speaker": ("dealer_next", "dealer", "dealer_left", "dealer_right"),
    "first_leader": ("dealer_next", "dealer"),
    "undertrump": ("must", "may_discard"),
    "meld_compare": ("best_single", "team_sum"),
    "meld_tie": ("none", "first", "trump"),
    "ta_values": ("pagat", "ffb2015", "raw", "raw_scaled"),
    "capot_score": ("der100", "flat250"),
    "tie": ("litige", "made", "failed"),
    "rounding": ("none", "nearest10_5up", "nearest10_5down"),
    "bid_values": ("multiples", "any_step"),
    "capot_contract_score": ("cards_and_value", "value"),
    "multiplier_scope": ("whole", "contract_only", "base_and_contract", "points_made", "deal_scores"),
    "meld_cards": ("dealt", "after_trick1"),
    "match_end": ("reach", "exceed"),
    "made_melds": ("own", "takers"),
}
# Integer options limited to a few values.
INT_CHOICES: dict[str, tuple[int, ...]] = {"carre_minor": (100, 50), "sa_ace": (19, 11), "carre_nines": (150, 0)}
# Defaults that depend on the game: (classic, coinche).
GAME_DEFAULTS: dict[str, tuple[Any, Any]] = {
    "failure_base": (162, 160),
    "rounding": ("none", "nearest10_5up"),
    "target": (1000, 2000),
}
# Bid values a ladder may have: the profiles have at most 101 (club-coinche, any value from 82 to
# 182); every list of legal calls walks the ladder, and 1000 values check in some 30 ms.
MAX_BID_VALUES = 1000

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
    trump_lead_must_beat: bool = True  # suit contract, trumps led: go over the highest trump if possible
    must_overtrump: bool = True  # void in the suit led, a trump in the trick: go over it if possible
    follow_or_trump: bool = False  # holding the suit led, a trump may be played instead (002, 004)
    # card values (§1)
    sa_ta: bool = False
    sa_ace: int = 19
    ta_values: str = "pagat"
    capot_score: str = "der100"
    # announcements and belote (§5)
    melds: bool = False
    meld_compare: str = "best_single"
    meld_tie: str = "none"
    meld_cards: str = "dealt"  # after_trick1: the hand after trick 1 + the cards won in it (002)
    carre_minor: int = 100
    belote_must_announce: bool = True
    belote_kept_on_failure: bool = True
    melds_lost_on_failure: bool = True
    melds_in_contract: bool = True  # false: melds play no part in whether the contract is made (000, 002, 003)
    made_melds: str = "own"  # takers: a made contract's takers score the melds of both sides (000)
    carre_nines: int = 150  # 0: four nines are no meld (003)
    belote_at_ta: bool = True  # false: no belote at TA either (004)
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
    capot_belote: int = 0  # C of a capot belote (capot + a belote of the takers, 003: 750); 0: not played
    generale_belote: int = 0  # C of a générale belote (003: 1500); 0: not played
    coinche_right_after_bid: bool = False  # 000: a coinche only as the call right after the bid
    coinche_closes: bool = False  # 003, 004: a coinche ends the auction (a surcoinche may still answer it)
    surcoinche_right_after_coinche: bool = False  # 000: a surcoinche only as the call right after the coinche
    surcoinche_closes: bool = True  # false (000): the auction goes on after a surcoinche
    # scoring (§7)
    surcoinche_factor: int = 4
    tie: str = "litige"
    must_beat_defence: bool = True
    bid80_needs_82: bool = False
    multiplier_scope: str = "whole"
    failure_contract: bool = True  # false: a failed contract's value goes to nobody (003 "방어측 점수=카드 점수 총합+선언")
    capot_contract_score: str = "cards_and_value"  # value (003): a capot or générale contract scores C, no cards
    failure_base: int = 162
    rounding: str = "none"
    target: int = 1000
    match_end: str = "reach"  # exceed: a side must pass the target; level: the last deal's winner (000)
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
            profile = ALIASES.get(profile, profile)  # an old name: the rules of its new profile, under that name
        if profile not in PROFILES:
            old = ", ".join(f"{name} (now {new})" for name, new in ALIASES.items())
            raise RulesError(f"unknown rules profile {profile!r}; valid profiles: {', '.join(PROFILES)}; "
                             f"old names: {old}")
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

    @property
    def bid_value_count(self) -> int:
        """How many bid values the ladder holds (every whole value with ``bid_values=any_step``)."""
        step = 1 if self.bid_values == "any_step" else self.bid_step
        return (self.bid_max - self.bid_min) // step + 1

    def _check(self) -> None:
        if self.bid_min <= 0 or self.bid_max < self.bid_min or self.bid_step <= 0:
            raise RulesError(
                f"bids need 0 < bid_min <= bid_max and bid_step > 0 "
                f"(got bid_min={self.bid_min}, bid_max={self.bid_max}, bid_step={self.bid_step})")
        if self.bid_value_count > MAX_BID_VALUES:  # a Rules tag must not make a ladder of millions
            raise RulesError(f"at most {MAX_BID_VALUES} bid values: bid_min={self.bid_min} to "
                             f"bid_max={self.bid_max} make {self.bid_value_count}")
        if self.surcoinche_factor < 1 or self.failure_base < 0 or self.target <= 0 or \
                min(self.generale, self.capot_belote, self.generale_belote) < 0:
            raise RulesError("surcoinche_factor must be >= 1, failure_base, generale, capot_belote and "
                             "generale_belote >= 0, target > 0")

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
    # The four seed pages, one profile per game of each (docs/seeds.md says which sentence sets what).
    "namu-classic": {"game": "classic", "direction": "cw", "first_speaker": "dealer", "first_leader": "dealer",
                     "target": 500, "match_end": "exceed"},
    "namu-annonces": {"game": "classic", "direction": "cw", "first_speaker": "dealer", "first_leader": "dealer",
                      "melds": True, "meld_compare": "team_sum", "meld_tie": "trump", "melds_in_contract": False,
                      "made_melds": "takers", "target": 500, "match_end": "exceed"},
    "namu-coinche": {"game": "coinche", "direction": "cw", "first_speaker": "dealer", "first_leader": "dealer",
                     "ta_must_beat": False, "sa_ta": True, "melds": True, "meld_compare": "team_sum",
                     "meld_tie": "trump", "generale": 500, "decoincher": True, "coinche_right_after_bid": True,
                     "surcoinche_right_after_coinche": True, "surcoinche_closes": False, "must_beat_defence": False,
                     "bid80_needs_82": True, "multiplier_scope": "points_made", "failure_base": 162,
                     "rounding": "none", "match_end": "exceed"},
    "club-classic": {"game": "classic", "direction": "cw", "first_speaker": "dealer_left", "first_leader": "dealer",
                     "round2_same_suit": True, "undertrump": "may_discard", "partner_exemption": False,
                     "follow_or_trump": True, "melds": True, "meld_compare": "team_sum", "meld_cards": "after_trick1",
                     "carre_minor": 50, "belote_kept_on_failure": False, "melds_lost_on_failure": False,
                     "melds_in_contract": False, "tie": "made", "match_end": "exceed"},
    "sata-classic": {"game": "classic", "direction": "cw", "first_leader": "dealer", "round2_sa_ta": True,
                     "jack_forces_dealer": True, "undertrump": "may_discard", "trump_lead_must_beat": False,
                     "ta_must_beat": False, "melds": True, "meld_compare": "team_sum", "carre_minor": 50,
                     "carre_nines": 0, "belote_kept_on_failure": False, "melds_lost_on_failure": False,
                     "melds_in_contract": False},
    "sata-coinche": {"game": "coinche", "direction": "cw", "first_leader": "dealer", "undertrump": "may_discard",
                     "trump_lead_must_beat": False, "ta_must_beat": False, "sa_ta": True, "capot_score": "flat250",
                     "melds": True, "meld_compare": "team_sum", "carre_minor": 50, "carre_nines": 0,
                     "melds_in_contract": False, "bid_max": 180, "capot_value": 500, "generale": 1000,
                     "capot_belote": 750, "generale_belote": 1500, "coinche_closes": True, "bid80_needs_82": True,
                     "multiplier_scope": "contract_only", "failure_contract": False,
                     "capot_contract_score": "value", "failure_base": 162},
    "club-coinche": {"game": "coinche", "first_speaker": "dealer", "first_leader": "dealer",
                     "undertrump": "may_discard", "partner_exemption": False, "follow_or_trump": True,
                     "must_overtrump": False, "trump_lead_must_beat": False, "ta_must_beat": False, "sa_ta": True,
                     "sa_ace": 11, "ta_values": "raw", "belote_at_ta": False, "bid_min": 82, "bid_max": 182,
                     "bid_values": "any_step", "coinche_out_of_turn": True, "coinche_closes": True,
                     "surcoinche": False, "must_beat_defence": False, "multiplier_scope": "deal_scores",
                     "rounding": "none", "match_end": "exceed"},
}

# Old profile names and the profile each now stands for (docs/rules.md §8); a record whose
# Rules tag names one gets the info finding rules-alias.
ALIASES: dict[str, str] = {"korean": "namu-annonces", "korean-coinche": "namu-coinche"}


def profile_alias(text: str) -> tuple[str, str] | None:
    """(old name, new profile) when the rules string ``text`` names an old profile, else None."""
    first = text.split(";", 1)[0].strip().lower()
    return (first, ALIASES[first]) if "=" not in first and first in ALIASES else None


# One line on each profile, for the site's Rules filter and profile list (and docs/rules.md §8).
PROFILE_DESCRIPTIONS: dict[str, str] = {
    "ffb": "FFB classic Belote (2016): counter-clockwise, no announcements, 1000 points.",
    "ffb-annonces": "FFB classic Belote with announcements (the best single meld scores).",
    "ffb-coinche": "FFB Coinche: announcements, SA and TA, undertrumping free, FFB 2015 TA values.",
    "ffb-contree": "FFB Contrée: no announcements, no SA/TA, a failed side's belote goes to the defence.",
    "pagat-coinche": "Pagat's Coinche: only the contract is multiplied, 82 for a bid of 80, générale 500.",
    "namu-classic": "Seed 000 (namu wiki), classic Belote: clockwise, the dealer speaks and leads, "
                    "over 500 wins.",
    "namu-annonces": "Seed 000 (namu wiki), Belote with announcements: team sums, melds apart from the "
                     "contract, the trump run wins ties.",
    "namu-coinche": "Seed 000 (namu wiki), Coinche: bids 80-160, coinche only on the bid just made, "
                    "a coinche doubles what the takers make, over 2000 wins.",
    "club-classic": "Seed 002 (a club's Belote): announcements after trick 1 with the cards won, "
                    "follow suit or trump, four 10/K/Q 50, over 1000 wins.",
    "sata-classic": "Seed 003, classic: SA and TA named in round 2, valet forcé, melds apart from the "
                    "contract, no four nines.",
    "sata-coinche": "Seed 003, Coinche: bids 80-180, capot 500, capot belote 750, générale 1000; a coinche "
                    "ends the auction and doubles the contract only.",
    "club-coinche": "Seed 004 (a club's Coinche): the dealer opens, bids from 82 by 10 or more, anyone "
                    "coinches out of turn, no overtrump duty.",
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
