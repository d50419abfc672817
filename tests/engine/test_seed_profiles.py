"""The seed profiles (shared/seeds/000, 002, 003, 004): every profile parses and has a
one-line description, the old names are aliases as docs/rules.md §8 says, and every
``option=value`` docs/seeds.md gives a section's profiles is the value those profiles have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replayer.engine.rules import ALIASES, OPTION_NAMES, PROFILE_DESCRIPTIONS, PROFILES, Rules, RulesError

SEEDS_DOC = Path(__file__).resolve().parents[2] / "docs" / "seeds.md"
SEED_PROFILES = ("namu-classic", "namu-annonces", "namu-coinche", "club-classic", "sata-classic", "sata-coinche",
                 "club-coinche")


@pytest.mark.parametrize("profile", list(PROFILES))
def test_every_profile_parses_and_has_a_one_line_description(profile):
    """Each profile of PROFILES parses, names itself, and has the description the site shows."""
    rules = Rules.parse(profile)
    assert rules.profile == profile and str(rules) == profile
    description = PROFILE_DESCRIPTIONS[profile]
    assert description and "\n" not in description and len(description) <= 160


def test_the_descriptions_follow_the_profiles():
    assert list(PROFILE_DESCRIPTIONS) == list(PROFILES)
    assert set(SEED_PROFILES) <= set(PROFILES)


@pytest.mark.parametrize("old, new", [("korean", "namu-annonces"), ("korean-coinche", "namu-coinche")])
def test_old_names_are_aliases(old, new):
    """docs/rules.md §8: ``korean`` is ``namu-annonces``, ``korean-coinche`` is ``namu-coinche``
    (000's games); the rules are named after the new profile, overrides apply as usual."""
    assert ALIASES[old] == new and old not in PROFILES
    assert Rules.parse(old) == Rules.parse(new) and Rules.parse(old).profile == new
    assert Rules.parse(old.upper()) == Rules.parse(new)
    assert Rules.parse(f"{old}; target=1000") == Rules.parse(f"{new}; target=1000")
    assert str(Rules.parse(f"{old}; target=1000")) == f"{new}; target=1000"


def test_an_unknown_profile_lists_the_profiles_and_the_aliases():
    with pytest.raises(RulesError) as caught:
        Rules.parse("namu")
    message = str(caught.value)
    assert all(name in message for name in PROFILES)
    assert "korean (now namu-annonces)" in message


def _value(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def seeds_doc_claims() -> list[tuple[str, str, str, str]]:
    """(section, profile, option, value) of every ``option=value`` in the rule cells of
    docs/seeds.md, before any "other reading"."""
    claims = []
    profiles: list[str] = []
    section = ""
    for line in SEEDS_DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            section = line
            head = line.rsplit(":", 1)[-1] if ":" in line else ""
            profiles = [p for p in re.findall(r"`([a-z-]+)`", head) if p in PROFILES]
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not line.startswith("| ") or len(cells) != 5 or not cells[0].isdigit():
            continue
        rule = cells[3].split("other reading")[0]
        for name, value in re.findall(r"`([a-z0-9_]+)=([a-z0-9_]+)`", rule):
            claims += [(section, profile, name, value) for profile in profiles]
    return claims


def test_the_seeds_doc_names_real_options():
    claims = seeds_doc_claims()
    assert len(claims) > 150
    assert {name for _, _, name, _ in claims} <= set(OPTION_NAMES)
    assert {profile for _, profile, _, _ in claims} == set(SEED_PROFILES)


def test_every_profile_does_what_the_seeds_doc_says():
    """docs/seeds.md: each option and value a section's rule cells give is its profiles' value."""
    wrong = [(section, profile, name, value, _value(getattr(Rules.parse(profile), name)))
             for section, profile, name, value in seeds_doc_claims()
             if _value(getattr(Rules.parse(profile), name)) != value]
    assert wrong == []
