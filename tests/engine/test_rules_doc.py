"""docs/rules.md stays true to the code: every option documented with its values and
default, and the generated profile table and worked examples up to date."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from replayer.engine.rules import CHOICES, GAME_DEFAULTS, INT_CHOICES, OPTION_NAMES, Rules

DOCS = Path(__file__).resolve().parents[2] / "docs"


def option_rows() -> dict[str, list[str]]:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    section = text.split("## 9. Every option", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in section.splitlines() if line.startswith("| ")]
    return {cells[0].strip(): [c.strip() for c in cells[1:]] for cells in rows[1:]}


def test_every_option_is_documented_with_its_values_and_default():
    rows = option_rows()
    assert list(rows) == list(OPTION_NAMES)
    defaults = Rules()
    for name, (values, default, what, section) in rows.items():
        assert what and section
        if name in CHOICES or name in INT_CHOICES:
            choices = CHOICES.get(name) or tuple(map(str, INT_CHOICES[name]))
            assert values.split(", ") == list(choices), name
        if name in GAME_DEFAULTS:
            classic, coinche = GAME_DEFAULTS[name]
            assert default == f"{classic} classic, {coinche} coinche", name
            continue
        value = getattr(defaults, name)
        assert default == (str(value).lower() if isinstance(value, bool) else str(value)), name


def test_generated_blocks_are_up_to_date():
    spec = importlib.util.spec_from_file_location("make_rules_examples", DOCS / "make_rules_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    assert module.write(text) == text, "run python3 docs/make_rules_examples.py --write"
